#!/usr/bin/env python3
"""The naming rule for functions defined in src/, and the rename that applies it.

Rule: a function is public, named sv_<name> and declared in a header under
include/serval/, or internal, named sv__<module>_<name> where <module> names
the part of the library that defines it (a folder of src/ or of
src/formats/). Functions of other prefixes (gd_, ki_, static helpers) are
outside the rule.

  internal_names.py check [ROOT]   list the functions that break the rule,
                                   print counts, exit 1 if any
  internal_names.py map [ROOT]     print the rename map "OLD NEW" a line

Used by scripts/check-names.sh and scripts/rename-internal.sh.
"""
import os
import re
import sys

# Module names besides the folders of src/ and src/formats/: short names the
# code already uses for a folder or a part of one.
ALIASES = {"ki": "kingsisle", "zip": "compress"}

# Where public names are used by their spelling rather than through a header:
# the Python module's ctypes fallback and the browser viewer's exported list.
BY_NAME_DIRS = ("bindings", "web")

SOURCE_EXTS = (".c", ".h")

# A function definition: at the start of a line, a return type, the name, the
# parameter list and then the opening brace (on the same line or the next).
DEFINITION = re.compile(
    r"^(?!#|typedef\b|return\b|else\b|if\b|while\b|for\b|switch\b|do\b)"
    r"[A-Za-z_][\w \t\*]*?[\s\*](sv_\w+)\s*\(([^;{}]*?)\)\s*\{",
    re.MULTILINE,
)
COMMENT_OR_STRING = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL
)


def blank_comments_and_strings(text):
    """The text with comments and literals replaced by spaces (newlines kept),
    so that a name in a comment or a message is not taken for code."""
    return COMMENT_OR_STRING.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def source_files(top):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(SOURCE_EXTS):
                yield os.path.join(dirpath, name)


def module_of(root, path):
    """The module a file of src/ belongs to: its folder under src/formats/,
    else its folder under src/ (a file directly in src/formats/ is 'formats')."""
    parts = os.path.relpath(path, os.path.join(root, "src")).split(os.sep)
    if parts[0] == "formats" and len(parts) > 2:
        return parts[1]
    return parts[0]


def known_modules(root):
    src = os.path.join(root, "src")
    mods = {d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))}
    formats = os.path.join(src, "formats")
    if os.path.isdir(formats):
        mods |= {d for d in os.listdir(formats) if os.path.isdir(os.path.join(formats, d))}
    mods |= set(ALIASES)
    return mods


def public_names(root):
    """Every sv_ identifier a public header mentions, and every one that
    bindings/ or web/ spell out (with or without emscripten's leading _)."""
    names = set()
    inc = os.path.join(root, "include", "serval")
    for dirpath, _, filenames in os.walk(inc):
        for name in filenames:
            if name.endswith((".h", ".h.in")):
                with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                    names |= set(re.findall(r"\b(sv_\w+)", f.read()))
    for d in BY_NAME_DIRS:
        top = os.path.join(root, d)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [x for x in dirnames if x not in ("node_modules", "__pycache__")]
            for name in filenames:
                try:
                    with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                        text = f.read()
                except (UnicodeDecodeError, OSError):
                    continue
                names |= set(re.findall(r"(?<![A-Za-z0-9])_?(sv_\w+)", text))
    return {n for n in names if not n.startswith("sv__")}


def definitions(root):
    """{name: {module, ...}} of the sv_ and sv__ functions src/ defines, and
    {name: [path, ...]} where each is defined."""
    mods, where = {}, {}
    for path in source_files(os.path.join(root, "src")):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = blank_comments_and_strings(f.read())
        for m in DEFINITION.finditer(text):
            name = m.group(1)
            mods.setdefault(name, set()).add(module_of(root, path))
            where.setdefault(name, []).append(os.path.relpath(path, root))
    return mods, where


def internal_module(name, modules):
    """The module an sv__ name names, or None."""
    rest = name[len("sv__"):]
    for mod in sorted(modules, key=len, reverse=True):
        if rest.startswith(mod + "_") and len(rest) > len(mod) + 1:
            return mod
    return None


def analyse(root):
    """(unexported, misnamed, renames, ambiguous): the sv_ functions defined
    in src/ that no public header declares, the sv__ ones without a module,
    the map old -> new for both, and names defined in several modules (left
    out of the map: one spelling cannot be given two new names)."""
    modules = known_modules(root)
    public = public_names(root)
    defs, where = definitions(root)
    unexported, misnamed, renames, ambiguous = [], [], {}, []
    for name in sorted(defs):
        if name.startswith("sv__"):
            if internal_module(name, modules):
                continue
            misnamed.append(name)
            rest = name[len("sv__"):]
        else:
            if name in public:
                continue
            unexported.append(name)
            rest = name[len("sv_"):]
        if len(defs[name]) != 1:
            ambiguous.append(name)
            continue
        mod = next(iter(defs[name]))
        if rest.startswith(mod + "_"):
            rest = rest[len(mod) + 1:]
        renames[name] = "sv__%s_%s" % (mod, rest)
    # Two old names must not meet in one new name, nor a new name take one in use.
    taken = {}
    for old, new in sorted(renames.items()):
        if new in defs or new in public or new in taken:
            sys.exit("internal_names: %s and %s would both be %s" % (old, taken.get(new, new), new))
        taken[new] = old
    return unexported, misnamed, renames, ambiguous, where


def main(argv):
    if len(argv) < 2 or argv[1] not in ("check", "map"):
        sys.exit("usage: internal_names.py check|map [ROOT]")
    root = argv[2] if len(argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    unexported, misnamed, renames, ambiguous, where = analyse(root)
    if argv[1] == "map":
        for old, new in sorted(renames.items()):
            print(old, new)
        for name in ambiguous:
            print("internal_names: %s is defined in several modules (%s); not renamed"
                  % (name, ", ".join(where[name])), file=sys.stderr)
        return 0
    if unexported:
        print("sv_ functions defined in src/ that no public header declares:")
        for name in unexported:
            print("  %s  (%s)" % (name, ", ".join(where[name])))
    if misnamed:
        print("sv__ functions whose name does not start with sv__<module>_:")
        for name in misnamed:
            print("  %s  (%s)" % (name, ", ".join(where[name])))
    print("%d sv_ functions not public, %d sv__ functions without a module"
          % (len(unexported), len(misnamed)))
    return 1 if unexported or misnamed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
