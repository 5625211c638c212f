"""The rules of cocci/, and one semantic patch joining several of them."""
import os
import re

from .util import Fatal

# scripts/prefilter.c -k: the letter of each kind of candidate ("// Prefilter: KIND")
PREFILTER_KINDS = {"comparison": "c", "temporary": "t"}
# each line a rule reports in the runner's joined semantic patch starts with this
TAG = "WRAPCMP-RUNNER"


def read_modules(rules_dir, path, text):
    """{file name: text} of the python modules that the rule at path imports from its own
    folder: each `from NAME import *` line of its python (the wrapcmp rules take their
    shared code, NAME.py, from beside the rule: cocci/wrapcmp_shared.py)."""
    modules = {}
    for name in re.findall(r"(?m)^from\s+(\w+)\s+import\s+\*", text):
        module = os.path.join(rules_dir, name + ".py")
        try:
            with open(module, encoding="utf-8") as f:
                modules[name + ".py"] = f.read()
        except OSError as e:
            raise Fatal("%s imports %s, which must lie beside it: cannot read %s: %s"
                        % (path, name, module, e.strerror or e))
    return modules


def read_rules(rules_dir):
    rules = []
    try:
        names = sorted(os.listdir(rules_dir))
    except OSError as e:
        raise Fatal("cannot read the rules folder %s: %s" % (rules_dir, e.strerror or e))
    for f in names:
        if f.endswith(".cocci"):
            path = os.path.join(rules_dir, f)
            text = open(path, encoding="utf-8").read()
            m = re.search(r"(?m)^//\s*Confidence:\s*(\S+)", text)
            # a rule with no - or + line only reports; "// Prefilter: KIND" says which
            # kind of prefilter candidate it needs (none: every file that passes)
            k = re.search(r"(?m)^//\s*Prefilter:\s*(\S+)", text)
            if k and k.group(1) not in PREFILTER_KINDS:
                raise Fatal("%s: unknown '// Prefilter: %s' (known: %s)"
                            % (path, k.group(1), ", ".join(sorted(PREFILTER_KINDS))))
            rules.append({"name": f[:-len(".cocci")], "path": path, "text": text,
                          "confidence": m.group(1) if m else "Unknown",
                          "rewrites": re.search(r"(?m)^[-+]", text) is not None,
                          "kind": PREFILTER_KINDS[k.group(1)] if k else None,
                          "modules": read_modules(rules_dir, path, text)})
    if not rules:
        raise Fatal("no .cocci rules in %s" % rules_dir)
    return rules


def write_combined(path, rules):
    """Write combined_rules(rules) to path and, beside it, the python modules the rules
    import (the joined patch finds them as each rule does, in the folder of the running
    semantic patch).  Returns what decides spatch's results, for the cache key: the joined
    patch and the modules, by name."""
    text = combined_rules(rules)
    modules = {}
    for r in rules:
        modules.update(r.get("modules", {}))
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    for name in sorted(modules):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(modules[name])
    return "\0".join([text] + ["%s\0%s" % (n, modules[n]) for n in sorted(modules)])


def combined_rules(rules):
    """One semantic patch holding every rule, for one parse per file in report mode."""
    virtuals = sorted({v for r in rules for v in re.findall(r"(?m)^virtual\s+(\w+)\s*$", r["text"])}
                      | {"patch", "context", "org", "report"})
    head = ["virtual %s" % v for v in virtuals] + ["",
            "@initialize:python@", "@@",
            "def wrapcmp_runner_report(rule, p, msg):",
            "\tprint('%s\\t%%s\\t%%s\\t%%s\\t%%s\\t%%s\\t%%s\\t%%s' %% (rule, p.file, p.line, "
            "p.column, p.line_end, p.column_end, msg))" % TAG, ""]
    parts = ["\n".join(head)]
    for r in rules:
        text = re.sub(r"(?m)^virtual\s+\w+\s*$", "", r["text"])
        text, n = re.subn(r"\bcoccilib\.report\.print_report\(",
                          "wrapcmp_runner_report(%r, " % r["name"], text)
        if n == 0:
            raise Fatal("%s has no coccilib.report.print_report call: the runner cannot "
                        "tell its findings apart" % r["path"])
        parts.append("// ---- %s\n%s" % (os.path.basename(r["path"]), text))
    return "\n".join(parts)
