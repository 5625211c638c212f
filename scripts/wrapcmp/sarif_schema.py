"""The SARIF 2.1.0 JSON schema, fetched once into a cache folder, and validation against it.

The schema is another project's file and is not kept in this repository: `npm pack`
fetches the pinned npm package below (the npm registry's client verifies the tarball's
integrity), the one schema file is read out of the tarball (nothing else is unpacked),
checked against its pinned SHA-256, its JSON, its id and its version, and written to
CACHE/sarif-2.1.0-rtm.5.json, CACHE being $WRAPCMP_CACHE/sarif when WRAPCMP_CACHE is set,
else /var/cache/wrapcmp/sarif.  Once there it is used as it is, without npm or a network.

  schema_path(cache=None)    the cached schema's path, fetched first if missing or wrong
  validate(log, path=None)   the schema's complaints about a SARIF log, as strings (none:
                             valid); needs Debian's python3-jsonschema (/usr/bin/python3),
                             and uses the validator of the draft the schema names (draft-04)

scripts/sarif-schema-fetch [--cache DIR] prints the path (make install-deps calls it).
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from .util import Fatal

PACKAGE = "@microsoft/jest-sarif@1.0.0-beta.0"
MEMBER = "package/lib/schemas/sarif-2.1.0-rtm.5.json"
NAME = "sarif-2.1.0-rtm.5.json"
SHA256 = "2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8"
SCHEMA_ID_END = "/sarif-2.1.0-rtm.5.json"
NETWORK_ERRORS = ("ENOTFOUND", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EAI_AGAIN",
                  "ENETUNREACH", "EHOSTUNREACH", "network", "proxy")


def cache_dir(cache=None):
    if cache:
        return cache
    root = os.environ.get("WRAPCMP_CACHE")
    return os.path.join(root, "sarif") if root else "/var/cache/wrapcmp/sarif"


def check(data):
    """Why these bytes are not the pinned schema, or None."""
    if hashlib.sha256(data).hexdigest() != SHA256:
        return "its SHA-256 is not the pinned %s" % SHA256
    try:
        s = json.loads(data.decode("utf-8"))
    except ValueError as e:
        return "it is not JSON: %s" % e
    sid = s.get("$id") or s.get("id") or ""
    if not sid.endswith(SCHEMA_ID_END):
        return "its id is %r, not ...%s" % (sid, SCHEMA_ID_END)
    if s.get("properties", {}).get("version", {}).get("enum") != ["2.1.0"]:
        return "it does not describe SARIF version 2.1.0"
    return None


def fetch(dest):
    """npm pack the package in a scratch folder and write its schema to dest."""
    try:
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        if not os.access(os.path.dirname(dest), os.W_OK):
            raise PermissionError(13, "Permission denied")
    except OSError as e:
        raise Fatal("cannot write into %s: %s (set WRAPCMP_CACHE to a folder you can write)"
                    % (os.path.dirname(dest), e.strerror or e))
    npm = shutil.which("npm")
    if npm is None:
        raise Fatal("npm not found, so the SARIF schema cannot be fetched: install npm "
                    "(Debian: apt-get install npm; NodeSource's nodejs includes it), or "
                    "copy %s from %s to %s" % (MEMBER, PACKAGE, dest))
    env = dict(os.environ, npm_config_update_notifier="false", npm_config_fund="false",
               npm_config_audit="false", npm_config_loglevel="error")
    with tempfile.TemporaryDirectory(prefix="wrapcmp-sarif-") as tmp:
        try:
            p = subprocess.run([npm, "pack", PACKAGE], cwd=tmp, env=env, capture_output=True,
                               text=True, timeout=600)
        except subprocess.TimeoutExpired:
            raise Fatal("npm pack %s took more than 10 minutes: is the npm registry "
                        "reachable?" % PACKAGE)
        tgz = [f for f in os.listdir(tmp) if f.endswith(".tgz")]
        if p.returncode != 0 or len(tgz) != 1:
            said = [l for l in (re.sub(r"^npm (error|ERR!)\s*", "", l).strip()
                                for l in (p.stderr or p.stdout).splitlines())
                    if l and not re.match(r"at |[{}]|[a-z]\w*: |A complete log", l)][:4]
            net = any(w in "\n".join(said) for w in NETWORK_ERRORS)
            raise Fatal("npm pack %s failed (exit %d)%s:\n  %s" % (
                PACKAGE, p.returncode, ": no network, or the npm registry is not reachable"
                if net else "", "\n  ".join(said) or "(no output)"))
        try:
            with tarfile.open(os.path.join(tmp, tgz[0]), "r:gz") as t:
                m = t.getmember(MEMBER)
                data = t.extractfile(m).read() if m.isfile() else b""
        except (KeyError, tarfile.TarError, OSError) as e:
            raise Fatal("%s from npm has no readable %s: %s" % (tgz[0], MEMBER, e))
    why = check(data)
    if why:
        raise Fatal("the schema in %s is not the expected one: %s" % (PACKAGE, why))
    try:
        tmp = "%s.tmp-%d" % (dest, os.getpid())
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, dest)
    except OSError as e:
        raise Fatal("cannot write %s: %s (set WRAPCMP_CACHE to a folder you can write)"
                    % (dest, e.strerror or e))


def schema_path(cache=None):
    """The cached schema, fetched with npm when it is missing or not the pinned one."""
    dest = os.path.join(cache_dir(cache), NAME)
    try:
        with open(dest, "rb") as f:
            why = check(f.read())
        if why is None:
            return dest
        sys.stderr.write("sarif-schema-fetch: %s: %s; fetching it again\n" % (dest, why))
    except FileNotFoundError:
        pass
    except OSError as e:
        raise Fatal("cannot read %s: %s" % (dest, e.strerror or e))
    fetch(dest)
    return dest


def validate(log, path=None):
    """The schema's complaints about log (a dict), sorted; [] when it is valid."""
    try:
        import jsonschema
        from jsonschema.validators import validator_for
    except ImportError:
        raise Fatal("python3-jsonschema is missing: apt-get install python3-jsonschema, "
                    "and run /usr/bin/python3")
    with open(path or schema_path(), encoding="utf-8") as f:
        schema = json.load(f)
    cls = validator_for(schema)
    cls.check_schema(schema)
    errors = cls(schema, format_checker=jsonschema.FormatChecker()).iter_errors(log)
    return sorted("%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)", e.message)
                  for e in errors)


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="sarif-schema-fetch", description="Fetch the SARIF "
                                 "2.1.0 JSON schema into the cache (once) and print its path.")
    ap.add_argument("--cache", help="the folder (default $WRAPCMP_CACHE/sarif, else "
                    "/var/cache/wrapcmp/sarif)")
    a = ap.parse_args(argv)
    try:
        print(schema_path(a.cache))
    except Fatal as e:
        sys.stderr.write("sarif-schema-fetch: error: %s\n" % e)
        return 2
    return 0
