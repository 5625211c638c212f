"""What GitHub code scanning and GitLab read of a SARIF 2.1.0 log, checked on a log.
Standard library only.  The full schema is checked elsewhere (tests/check-sarif, with
python3-jsonschema); this is the documented subset that the two services read on top of it.

  github_problems(log, data=None) -> [str]   every break of GitHub's documented
                                             requirements and limits
  gitlab_problems(log, data=None) -> [str]   the same for GitLab's SARIF ingestion
      log    the log as json.load gives it
      data   its bytes as uploaded (for the size limits); default: compact UTF-8 JSON

Each problem is one line, "JSON path: what is wrong", the path from the log's root, "$".
The limits are module constants, so that a test can make them small.

Sources:
- GitHub Docs, "SARIF support for code scanning"
  (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/
  sarif-support-for-code-scanning; github/docs content/code-security/reference/code-scanning/
  sarif-files/sarif-support-for-code-scanning.md): the required properties ("the empty string
  is not supported for required properties"), the values of level, precision and
  problem.severity, security-severity as a string score above 0.0 up to 10.0, names and
  descriptions up to 255 and 1,024 characters, at most 10 locations, source root and
  absolute URIs, 10 MB gzip-compressed, and its table of limits (the reusable
  data/reusables/code-scanning/sarif-limits.md): 20 runs a file; 25,000 results and 25,000
  rules a run; 100 tool extensions a run; 10,000 thread flow locations and 1,000 locations
  a result; 20 tags a rule.  Past a limit the upload is rejected.
- GitHub Docs, "SARIF results exceed one or more limits" (troubleshooting), the same table.
- github/codeql-action src/fingerprints.ts: the upload-sarif action fills in
  partialFingerprints.primaryLocationLineHash from the source file when a result lacks it,
  whatever other fingerprints the result has, so only partialFingerprints itself is
  required here.
- GitLab Docs, "SARIF reports" (https://docs.gitlab.com/user/application_security/detect/
  sarif/; GitLab 18.11, generally available in 19.2): ruleId required and matched to
  run.tool.driver.rules[].id, result.locations[0].physicalLocation required, a region with
  a startLine so that findings in one file do not collapse into one, security-severity a
  float from 0.0 to 10.0 and rank from 0.0 to 100.0; limits 10 MB a file, 20 runs,
  5,000 results a run (only the first are read), 25,000 rules, 10 tags a rule, name 255,
  shortDescription 1,024, fullDescription, message and helpUri 2,048 characters (a result
  with a longer string is dropped).  GitLab's Code Quality report is Code Climate JSON, not
  SARIF: only this security ingestion reads SARIF.
"""
import gzip
import json
import re

# ---------------------------------------------------------------- GitHub's limits
GITHUB_MAX_GZIP_BYTES = 10 * 1000 * 1000	# "10 MB": the smaller reading of MB
GITHUB_MAX_RUNS = 20
GITHUB_MAX_RESULTS = 25000
GITHUB_MAX_RULES = 25000
GITHUB_MAX_EXTENSIONS = 100
GITHUB_MAX_THREAD_FLOW_LOCATIONS = 10000
GITHUB_MAX_LOCATIONS = 10			# result.locations[], "up to a maximum of 10"
GITHUB_MAX_ALL_LOCATIONS = 1000			# "Location per result": locations + related
GITHUB_MAX_TAGS = 20
GITHUB_MAX_NAME = 255
GITHUB_MAX_DESCRIPTION = 1024
GITHUB_MAX_INDEX = 2 ** 63 - 1
GITHUB_LEVELS = ("none", "note", "warning", "error")
GITHUB_DEFAULT_LEVELS = ("note", "warning", "error")
GITHUB_PRECISIONS = ("very-high", "high", "medium", "low")
GITHUB_PROBLEM_SEVERITIES = ("error", "warning", "recommendation")

# ---------------------------------------------------------------- GitLab's limits
GITLAB_MAX_BYTES = 10 * 1000 * 1000
GITLAB_MAX_RUNS = 20
GITLAB_MAX_RESULTS = 5000
GITLAB_MAX_RULES = 25000
GITLAB_MAX_TAGS = 10
GITLAB_MAX_NAME = 255
GITLAB_MAX_SHORT = 1024
GITLAB_MAX_TEXT = 2048				# fullDescription, message, helpUri

VERSION = "2.1.0"
URI_REF = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


def serialized(log):
    return json.dumps(log, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _is_text(x):
    return isinstance(x, str) and x != ""


def _is_line(x):
    return isinstance(x, int) and not isinstance(x, bool) and x >= 1


def _list(x):
    return x if isinstance(x, list) else []


def _dict(x):
    return x if isinstance(x, dict) else {}


def _text(out, path, obj, key, limit=None, required=True):
    """obj[key] a non-empty string of at most limit characters."""
    if key not in obj:
        if required:
            out.append("%s.%s: required, a non-empty string" % (path, key))
        return
    v = obj[key]
    if not _is_text(v):
        out.append("%s.%s: %r is not a non-empty string" % (path, key, v))
    elif limit is not None and len(v) > limit:
        out.append("%s.%s: %d characters, more than %d" % (path, key, len(v), limit))


def _text_of(out, path, obj, key, limit=None, required=True):
    """obj[key].text, as _text()."""
    if key not in obj:
        if required:
            out.append("%s.%s.text: required, a non-empty string" % (path, key))
        return
    if not isinstance(obj[key], dict):
        out.append("%s.%s: %r is not an object" % (path, key, obj[key]))
        return
    _text(out, "%s.%s" % (path, key), obj[key], "text", limit)


def _count(out, path, items, limit, what, per):
    if len(items) > limit:
        out.append("%s: %d %s, more than the %d %s may have" % (path, len(items), what, limit,
                                                                per))


def _score(value, low_open):
    """The float of a score string or number, or None."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    if x != x or (x <= 0.0 if low_open else x < 0.0) or x > 10.0:
        return None
    return x


def _rules_of(run):
    """[(path, descriptor)] of the driver's and the extensions' rules."""
    tool = _dict(run.get("tool"))
    out = [("tool.driver.rules[%d]" % k, r)
           for k, r in enumerate(_list(_dict(tool.get("driver")).get("rules")))]
    for e, ext in enumerate(_list(tool.get("extensions"))):
        out += [("tool.extensions[%d].rules[%d]" % (e, k), r)
                for k, r in enumerate(_list(_dict(ext).get("rules")))]
    return out


def _root(run):
    """The run's own source root, invocations[0].workingDirectory.uri, or None."""
    inv = _list(run.get("invocations"))
    uri = _dict(_dict(inv[0] if inv else None).get("workingDirectory")).get("uri")
    return uri if _is_text(uri) else None


# ---------------------------------------------------------------- GitHub

def _github_uri(out, path, al, run, rpath):
    """An artifactLocation: a URI reference, relative to the repository root, or absolute
    under the run's source root; a uriBaseId that the run defines."""
    if not isinstance(al, dict):
        out.append("%s: required, an object with a uri" % path)
        return
    if "uri" not in al:
        out.append("%s.uri: required, a non-empty string" % path)
        return
    u = al["uri"]
    if not _is_text(u):
        out.append("%s.uri: %r is not a non-empty string" % (path, u))
        return
    if not URI_REF.fullmatch(u):
        out.append("%s.uri: %r is not a URI reference: percent-encode spaces and other "
                   "characters outside RFC 3986" % (path, u))
    if SCHEME.match(u) or u.startswith("/"):
        root = _root(run)
        if root is None or not u.startswith(root.rstrip("/") + "/"):
            out.append("%s.uri: %r is absolute and not under the run's source root "
                       "(invocations[0].workingDirectory.uri): code scanning matches paths "
                       "relative to the repository root" % (path, u))
    elif u == ".." or u.startswith("../") or "/../" in u:
        out.append("%s.uri: %r leaves the repository root" % (path, u))
    if "uriBaseId" in al and al["uriBaseId"] not in _dict(run.get("originalUriBaseIds")):
        out.append("%s.uriBaseId: %r is not defined in %s.originalUriBaseIds"
                   % (path, al["uriBaseId"], rpath))


def _github_region(out, path, region, required):
    if not isinstance(region, dict):
        if required:
            out.append("%s: required, with startLine, startColumn, endLine and endColumn"
                       % path)
        return
    for key in ("startLine", "startColumn", "endLine", "endColumn"):
        if key not in region:
            if required:
                out.append("%s.%s: required" % (path, key))
        elif not _is_line(region[key]):
            out.append("%s.%s: %r is not an integer from 1" % (path, key, region[key]))
    s, e = region.get("startLine"), region.get("endLine")
    if _is_line(s) and _is_line(e):
        if e < s:
            out.append("%s.endLine: %d, before startLine %d" % (path, e, s))
        elif e == s and _is_line(region.get("startColumn")) and \
                _is_line(region.get("endColumn")) and region["endColumn"] < region["startColumn"]:
            out.append("%s.endColumn: %d, before startColumn %d on one line"
                       % (path, region["endColumn"], region["startColumn"]))


def _github_location(out, path, loc, run, rpath, required):
    if not isinstance(loc, dict):
        out.append("%s: %r is not a location object" % (path, loc))
        return
    if "id" in loc and not (isinstance(loc["id"], int) and not isinstance(loc["id"], bool)
                            and 0 <= loc["id"] <= GITHUB_MAX_INDEX):
        out.append("%s.id: %r is not an integer from 0 to 2^63 - 1" % (path, loc["id"]))
    pl = loc.get("physicalLocation")
    if not isinstance(pl, dict):
        if required:
            out.append("%s.physicalLocation: required" % path)
        return
    _github_uri(out, path + ".physicalLocation.artifactLocation", pl.get("artifactLocation"),
                run, rpath)
    _github_region(out, path + ".physicalLocation.region", pl.get("region"), required)


def _github_rule(out, path, rule):
    if not isinstance(rule, dict):
        out.append("%s: %r is not a reportingDescriptor object" % (path, rule))
        return
    _text(out, path, rule, "id")
    _text(out, path, rule, "name", GITHUB_MAX_NAME, required=False)
    _text_of(out, path, rule, "shortDescription", GITHUB_MAX_DESCRIPTION)
    _text_of(out, path, rule, "fullDescription", GITHUB_MAX_DESCRIPTION)
    _text_of(out, path, rule, "help")
    if isinstance(rule.get("help"), dict):
        _text(out, path + ".help", rule["help"], "markdown", required=False)
    level = _dict(rule.get("defaultConfiguration")).get("level")
    if level is not None and level not in GITHUB_DEFAULT_LEVELS:
        out.append("%s.defaultConfiguration.level: %r is not one of %s"
                   % (path, level, ", ".join(GITHUB_DEFAULT_LEVELS)))
    props = rule.get("properties")
    if props is None:
        return
    if not isinstance(props, dict):
        out.append("%s.properties: %r is not an object" % (path, props))
        return
    pp = path + ".properties"
    if "tags" in props:
        tags = props["tags"]
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            out.append("%s.tags: %r is not an array of strings" % (pp, tags))
        else:
            _count(out, pp + ".tags", tags, GITHUB_MAX_TAGS, "tags", "a rule")
    for key, allowed in (("precision", GITHUB_PRECISIONS),
                         ("problem.severity", GITHUB_PROBLEM_SEVERITIES)):
        if key in props and props[key] not in allowed:
            out.append("%s.%s: %r is not one of %s" % (pp, key, props[key], ", ".join(allowed)))
    if "security-severity" in props:
        v = props["security-severity"]
        if not isinstance(v, str):
            out.append("%s.security-severity: %r is not a string: give the score as a "
                       "string, \"0.1\" to \"10.0\"" % (pp, v))
        elif _score(v, low_open=True) is None:
            out.append("%s.security-severity: %r is not a score above 0.0 up to 10.0 "
                       "(code scanning reads it as no security severity)" % (pp, v))


def _github_result(out, path, res, run, rpath, ids, driver_rules):
    if not isinstance(res, dict):
        out.append("%s: %r is not a result object" % (path, res))
        return
    _text_of(out, path, res, "message")
    rid = res.get("ruleId")
    if "ruleId" in res:
        if not _is_text(rid):
            out.append("%s.ruleId: %r is not a non-empty string" % (path, rid))
        elif rid not in ids:
            out.append("%s.ruleId: %r is not the id of a rule in %s.tool.driver.rules or "
                       "its extensions" % (path, rid, rpath))
    if "ruleIndex" in res and "rule" not in res:
        k = res["ruleIndex"]
        if not (isinstance(k, int) and not isinstance(k, bool) and 0 <= k <= GITHUB_MAX_INDEX):
            out.append("%s.ruleIndex: %r is not an integer from 0 to 2^63 - 1" % (path, k))
        elif k >= len(driver_rules):
            out.append("%s.ruleIndex: %d, past the %d rules of %s.tool.driver.rules"
                       % (path, k, len(driver_rules), rpath))
        elif _is_text(rid) and _dict(driver_rules[k]).get("id") != rid:
            out.append("%s.ruleIndex: %d names rule %r, not the ruleId %r"
                       % (path, k, _dict(driver_rules[k]).get("id"), rid))
    if "level" in res and res["level"] not in GITHUB_LEVELS:
        out.append("%s.level: %r is not one of %s" % (path, res["level"], ", ".join(GITHUB_LEVELS)))
    locs = res.get("locations")
    if not isinstance(locs, list) or not locs:
        out.append("%s.locations: required, an array of at least one location" % path)
        locs = []
    _count(out, path + ".locations", locs, GITHUB_MAX_LOCATIONS, "locations", "a result")
    for n, loc in enumerate(locs):
        _github_location(out, "%s.locations[%d]" % (path, n), loc, run, rpath, True)
    related = _list(res.get("relatedLocations"))
    for n, loc in enumerate(related):
        _github_location(out, "%s.relatedLocations[%d]" % (path, n), loc, run, rpath, False)
    if len(locs) + len(related) > GITHUB_MAX_ALL_LOCATIONS:
        out.append("%s: %d locations and related locations, more than the %d a result may "
                   "have" % (path, len(locs) + len(related), GITHUB_MAX_ALL_LOCATIONS))
    flows = [loc for cf in _list(res.get("codeFlows")) for tf in _list(_dict(cf).get(
        "threadFlows")) for loc in _list(_dict(tf).get("locations"))]
    _count(out, path + ".codeFlows", flows, GITHUB_MAX_THREAD_FLOW_LOCATIONS,
           "thread flow locations", "a result")
    fp = res.get("partialFingerprints")
    if not isinstance(fp, dict) or not fp:
        out.append("%s.partialFingerprints: required, an object of fingerprint strings "
                   "(code scanning reads primaryLocationLineHash)" % path)
    else:
        for k in sorted(fp):
            if not _is_text(fp[k]):
                out.append("%s.partialFingerprints.%s: %r is not a non-empty string"
                           % (path, k, fp[k]))


def github_problems(log, data=None):
    """Every break of GitHub code scanning's documented SARIF subset and limits in log."""
    out = []
    if not isinstance(log, dict):
        return ["$: %r is not a SARIF log object" % (log,)]
    _text(out, "$", log, "$schema")
    if log.get("version") != VERSION:
        out.append("$.version: %r: code scanning reads only SARIF %s"
                   % (log.get("version"), VERSION))
    runs = log.get("runs")
    if not isinstance(runs, list):
        out.append("$.runs: required, an array of runs")
        runs = []
    _count(out, "$.runs", runs, GITHUB_MAX_RUNS, "runs", "a file")
    size = len(gzip.compress(serialized(log) if data is None else data, mtime=0))
    if size > GITHUB_MAX_GZIP_BYTES:
        out.append("$: %d bytes gzip-compressed, more than the %d an upload may have"
                   % (size, GITHUB_MAX_GZIP_BYTES))
    for i, run in enumerate(runs):
        rpath = "$.runs[%d]" % i
        if not isinstance(run, dict):
            out.append("%s: %r is not a run object" % (rpath, run))
            continue
        tool = run.get("tool")
        driver = _dict(tool).get("driver")
        if not isinstance(driver, dict):
            out.append("%s.tool.driver: required, a toolComponent object" % rpath)
            driver = {}
        else:
            _text(out, rpath + ".tool.driver", driver, "name")
            if not isinstance(driver.get("rules"), list):
                out.append("%s.tool.driver.rules: required, an array of rules" % rpath)
        exts = _list(_dict(tool).get("extensions"))
        _count(out, rpath + ".tool.extensions", exts, GITHUB_MAX_EXTENSIONS,
               "tool extensions", "a run")
        rules = _rules_of(run)
        _count(out, rpath + ".tool", rules, GITHUB_MAX_RULES, "rules", "a run")
        seen = {}
        for rp, rule in rules:
            _github_rule(out, "%s.%s" % (rpath, rp), rule)
            rid = _dict(rule).get("id")
            if _is_text(rid):
                if rid in seen:
                    out.append("%s.%s.id: %r is also the id of %s.%s"
                               % (rpath, rp, rid, rpath, seen[rid]))
                else:
                    seen[rid] = rp
        if "automationDetails" in run:
            ad = run["automationDetails"]
            if not isinstance(ad, dict) or ("id" in ad and not _is_text(ad["id"])):
                out.append("%s.automationDetails.id: %r is not a non-empty string "
                           "(category/run-id)" % (rpath, _dict(ad).get("id", ad)))
        results = run.get("results")
        if not isinstance(results, list):
            out.append("%s.results: required, an array of results" % rpath)
            results = []
        _count(out, rpath + ".results", results, GITHUB_MAX_RESULTS, "results", "a run")
        driver_rules = _list(driver.get("rules"))
        for j, res in enumerate(results):
            _github_result(out, "%s.results[%d]" % (rpath, j), res, run, rpath, seen,
                           driver_rules)
    return out


# ---------------------------------------------------------------- GitLab

def gitlab_problems(log, data=None):
    """Every break of GitLab's documented SARIF ingestion rules and limits in log: what
    would make GitLab drop a result, reject the report, or read only part of it."""
    out = []
    if not isinstance(log, dict):
        return ["$: %r is not a SARIF log object" % (log,)]
    if log.get("version") != VERSION:
        out.append("$.version: %r: GitLab reads only SARIF %s" % (log.get("version"), VERSION))
    runs = _list(log.get("runs"))
    _count(out, "$.runs", runs, GITLAB_MAX_RUNS, "runs", "a file")
    size = len(serialized(log) if data is None else data)
    if size > GITLAB_MAX_BYTES:
        out.append("$: %d bytes, more than the %d a SARIF artifact may have"
                   % (size, GITLAB_MAX_BYTES))
    for i, run in enumerate(runs):
        rpath = "$.runs[%d]" % i
        run = _dict(run)
        driver = _dict(_dict(run.get("tool")).get("driver"))
        _text(out, rpath + ".tool.driver", driver, "name")
        rules = _list(driver.get("rules"))
        _count(out, rpath + ".tool.driver.rules", rules, GITLAB_MAX_RULES, "rules", "a run")
        ids = set()
        for k, rule in enumerate(rules):
            path = "%s.tool.driver.rules[%d]" % (rpath, k)
            rule = _dict(rule)
            if _is_text(rule.get("id")):
                ids.add(rule["id"])
            _text(out, path, rule, "name", GITLAB_MAX_NAME, required=False)
            for key, limit in (("shortDescription", GITLAB_MAX_SHORT),
                               ("fullDescription", GITLAB_MAX_TEXT)):
                if isinstance(rule.get(key), dict):
                    _text(out, "%s.%s" % (path, key), rule[key], "text", limit, required=False)
            _text(out, path, rule, "helpUri", GITLAB_MAX_TEXT, required=False)
            props = _dict(rule.get("properties"))
            _count(out, path + ".properties.tags", _list(props.get("tags")), GITLAB_MAX_TAGS,
                   "tags", "a rule")
            if "security-severity" in props and \
                    _score(props["security-severity"], low_open=False) is None:
                out.append("%s.properties.security-severity: %r is not a number from 0.0 to "
                           "10.0" % (path, props["security-severity"]))
        results = _list(run.get("results"))
        if len(results) > GITLAB_MAX_RESULTS:
            out.append("%s.results: %d results, more than the %d GitLab reads of a run"
                       % (rpath, len(results), GITLAB_MAX_RESULTS))
        for j, res in enumerate(results):
            path = "%s.results[%d]" % (rpath, j)
            res = _dict(res)
            rid = res.get("ruleId")
            if not _is_text(rid):
                out.append("%s.ruleId: required: GitLab drops a result without one" % path)
            elif rid not in ids:
                out.append("%s.ruleId: %r is not the id of a rule in %s.tool.driver.rules"
                           % (path, rid, rpath))
            if isinstance(res.get("message"), dict):
                _text(out, path + ".message", res["message"], "text", GITLAB_MAX_TEXT,
                      required=False)
            locs = _list(res.get("locations"))
            pl = _dict(locs[0]).get("physicalLocation") if locs else None
            if not isinstance(pl, dict):
                out.append("%s.locations[0].physicalLocation: required: GitLab drops a result "
                           "without one" % path)
            elif not _is_line(_dict(pl.get("region")).get("startLine")):
                out.append("%s.locations[0].physicalLocation.region.startLine: missing: "
                           "GitLab keeps one result per file and rule without it" % path)
            if "rank" in res:
                try:
                    ok = 0.0 <= float(res["rank"]) <= 100.0
                except (TypeError, ValueError):
                    ok = False
                if not ok:
                    out.append("%s.rank: %r is not a number from 0.0 to 100.0"
                               % (path, res["rank"]))
            sev = _dict(res.get("properties")).get("security-severity")
            if sev is not None and _score(sev, low_open=False) is None:
                out.append("%s.properties.security-severity: %r is not a number from 0.0 to "
                           "10.0" % (path, sev))
    return out
