"""APPLY=1: the run's diff into the tree, all or nothing."""
import os
import shutil
import subprocess
import tempfile

from .util import Fatal, log


def apply_diff(tree, diff_path, touched):
    check = subprocess.run(["patch", "-p1", "--dry-run", "--batch", "-d", tree, "-i", diff_path],
                           capture_output=True, text=True, errors="replace")
    if check.returncode != 0:
        raise Fatal("the patch does not apply to %s (dry run):\n%s\nthe tree was not changed"
                    % (tree, check.stdout + check.stderr))
    backup = tempfile.mkdtemp(prefix="wrapcmp-apply-")
    try:
        added = [rel for rel in touched if not os.path.lexists(os.path.join(tree, rel))]
        for rel in touched:
            if rel in added:	# a file the diff adds (a project's header)
                continue
            dst = os.path.join(backup, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(os.path.join(tree, rel), dst)
        done = False
        try:
            p = subprocess.run(["patch", "-p1", "--batch", "--no-backup-if-mismatch", "-d", tree,
                                "-i", diff_path], capture_output=True, text=True, errors="replace")
            done = p.returncode == 0
            if not done:
                raise Fatal("patch failed after a good dry run:\n%s" % (p.stdout + p.stderr))
        finally:
            if not done:
                for rel in touched:
                    if rel in added:
                        if os.path.lexists(os.path.join(tree, rel)):
                            os.unlink(os.path.join(tree, rel))
                    else:
                        shutil.copy2(os.path.join(backup, rel), os.path.join(tree, rel))
                log("the tree was restored to its state before --apply")
    finally:
        shutil.rmtree(backup, ignore_errors=True)


def check_writable(tree):
    if not os.access(tree, os.W_OK):
        raise Fatal("--apply: the tree %s is read-only for this user; nothing was done" % tree)
    try:
        fd, probe = tempfile.mkstemp(prefix=".wrapcmp-probe-", dir=tree)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise Fatal("--apply: cannot write into %s (%s); nothing was done" % (tree, e))
