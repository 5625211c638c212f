/* The cast form on unsigned operands: the subtraction wraps by definition, and the
 * conversion is implementation-defined, not undefined. */
#include <stdint.h>

int seq_before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}
