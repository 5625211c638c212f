"""GNU parallel over job ids, with a job log, retries, timeouts and progress on stderr.

The command is a shell string in which {} stands for the job id.  Only generated
job ids and quoted scratch paths appear in it, never a name from the tree."""
import os
import signal
import subprocess
import sys
import threading
import time

from .util import PROG, log

# environment variables a spatch job reads, which a remote host does not have
PASSED_TO_HOSTS = ("WRAPCMP_TYPEDEFS",)


class Progress:
    def __init__(self, what, total, weights, joblog, jobids):
        self.what, self.total, self.weights, self.joblog = what, total, weights, joblog
        self.jobids = jobids
        self.stop = threading.Event()
        self.tty = sys.stderr.isatty()
        self.start = time.time()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def done_files(self):
        done = 0
        try:
            with open(self.joblog) as f:
                next(f, None)
                for line in f:
                    seq = line.split("\t", 1)[0]
                    if seq.isdigit() and 0 < int(seq) <= len(self.jobids):
                        done += self.weights.get(self.jobids[int(seq) - 1], 0)
        except OSError:
            pass
        return min(done, self.total)

    def line(self):
        done = self.done_files()
        el = time.time() - self.start
        eta = "?" if done == 0 else "%d s" % (el * (self.total - done) / done)
        return "%s: %d/%d files done, %d s elapsed, ETA %s" % (self.what, done, self.total,
                                                                el, eta)

    def loop(self):
        last = 0
        while not self.stop.wait(1.0):
            if self.tty:
                sys.stderr.write("\r%s: %s   " % (PROG[0], self.line()))
                sys.stderr.flush()
            elif time.time() - last >= 15:
                last = time.time()
                log(self.line())

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *a):
        self.stop.set()
        self.thread.join()
        if self.tty:
            sys.stderr.write("\r")
        log(self.line())


def run_parallel(args, work, name, command, jobids, weights, total, what, timeout, retries):
    """Run command (with {} for the job id) for every job id; return {id: ok}."""
    joblog = os.path.join(work, name + ".joblog")
    argfile = os.path.join(work, name + ".args")
    with open(argfile, "w") as f:
        f.write("".join(j + "\n" for j in jobids))
    cmd = ["parallel", "--will-cite", "--joblog", joblog, "--timeout", str(timeout),
           "--retries", str(retries), "--halt", "never", "--arg-file", argfile]
    if args.hosts:
        cmd += ["--sshloginfile", args.hosts]
        # ssh starts the job with the host's environment: pass on what the rules read
        # (the typedef table of a C project's compile-command pass, typedefs.py)
        cmd += [a for v in PASSED_TO_HOSTS if v in os.environ for a in ("--env", v)]
    else:
        cmd += ["--jobs", str(args.jobs)]
    cmd.append(command)
    with open(os.path.join(work, name + ".parallel.err"), "w") as err, \
            Progress(what, total, weights, joblog, jobids):
        # parallel runs in its own session, so Ctrl-C or SIGTERM must stop it by hand; the
        # two are held back while it starts, so that one cannot land between its start
        # and the handler that stops it
        p = None
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err,
                                 start_new_session=True)
        finally:
            try:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
            except BaseException:
                if p is not None:
                    os.killpg(p.pid, signal.SIGTERM)
                    p.wait()
                raise
        try:
            p.wait()
        except BaseException:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait()
            raise
    ok = {}
    with open(joblog) as f:
        next(f, None)
        for line in f:
            # Seq is the job's line number in the argument file
            cols = line.rstrip("\n").split("\t")
            if len(cols) > 8 and cols[0].isdigit() and 0 < int(cols[0]) <= len(jobids):
                ok[jobids[int(cols[0]) - 1]] = cols[6] == "0" and cols[7] == "0"
    for j in jobids:
        ok.setdefault(j, False)
    return ok
