// SPDX-License-Identifier: GPL-2.0
/*
 * State and recorders behind the hosted stub headers, and the output side of
 * the drivers that tests/difftest.py generates.  Each call of a testcase
 * function prints one line:
 *	NAME#INDEX = RESULT[ counter=value ...]
 * with only the counters that moved during the call.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned long volatile jiffies;
unsigned int shim_nr_warn, shim_nr_bug;

static uint32_t io_value[2];
static unsigned int nr_io_read, nr_io_write;
static uint32_t io_last_write;
static unsigned int nr_something, nr_something_else, nr_another_thing, nr_check_hook;
static long long check_hook_sum;
static int trace;

uint32_t shim_io_read(void)
{
	return io_value[nr_io_read++ & 1];
}

void shim_io_write(uint32_t value)
{
	nr_io_write++;
	io_last_write = value;
}

void do_something(void)
{
	nr_something++;
}

void do_something_else(void)
{
	nr_something_else++;
}

void do_another_thing(void)
{
	nr_another_thing++;
}

int check_hook(int v)
{
	nr_check_hook++;
	check_hook_sum += v;
	return v;
}

/* Set the driver-controlled operands and clear the recorders. */
void __dt_set(unsigned long jif, uint32_t io0, uint32_t io1)
{
	jiffies = jif;
	io_value[0] = io0;
	io_value[1] = io1;
	nr_io_read = nr_io_write = 0;
	io_last_write = 0;
	nr_something = nr_something_else = nr_another_thing = nr_check_hook = 0;
	check_hook_sum = 0;
	shim_nr_warn = shim_nr_bug = 0;
}

void __dt_trace(const char *fn, unsigned long idx)
{
	if (trace)
		fprintf(stderr, "__dt_call %s#%lu\n", fn, idx);
}

static void end_line(void)
{
	if (nr_io_read)
		printf(" io_read=%u", nr_io_read);
	if (nr_io_write)
		printf(" io_write=%u last=%#x", nr_io_write, io_last_write);
	if (nr_something)
		printf(" do_something=%u", nr_something);
	if (nr_something_else)
		printf(" do_something_else=%u", nr_something_else);
	if (nr_another_thing)
		printf(" do_another_thing=%u", nr_another_thing);
	if (nr_check_hook)
		printf(" check_hook=%u sum=%lld", nr_check_hook, check_hook_sum);
	if (shim_nr_warn)
		printf(" WARN_ON=%u", shim_nr_warn);
	if (shim_nr_bug)
		printf(" BUG_ON=%u", shim_nr_bug);
	putchar('\n');
}

void __dt_ret_s(const char *fn, unsigned long idx, long long v)
{
	printf("%s#%lu = %lld", fn, idx, v);
	end_line();
}

void __dt_ret_u(const char *fn, unsigned long idx, unsigned long long v)
{
	printf("%s#%lu = %llu", fn, idx, v);
	end_line();
}

void __dt_ret_void(const char *fn, unsigned long idx)
{
	printf("%s#%lu = void", fn, idx);
	end_line();
}

/* Run every function not named on the command line. */
int __dt_main(int argc, char **argv, unsigned int n, const char *const *names,
	      void (*const *run)(void))
{
	unsigned int k;
	int i, skip;

	trace = getenv("DT_TRACE") != NULL;
	for (k = 0; k < n; k++) {
		skip = 0;
		for (i = 1; i < argc; i++)
			if (!strcmp(argv[i], names[k]))
				skip = 1;
		if (!skip)
			run[k]();
	}
	return fflush(stdout) ? 1 : 0;
}
