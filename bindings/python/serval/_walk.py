"""The files a batch works on, as `serval conv -r` / `validate -r` collect
them (cli/cli_batch.c): a folder stands for every regular file under it,
each folder's entries in byte order of their names, depth first; links to
files are followed, links to folders are not (no cycles). Each file comes
with the name its output takes under an output folder: its path under the
folder it was found in, or its base name when it was named itself."""
import glob as _glob
import os as _os
import stat as _stat

MAX_DEPTH = 256  # as the command: deeper nesting is an error


def _walk(folder, root_len, depth, out):
    if depth > MAX_DEPTH:
        raise OSError("%s: directories nested too deep" % folder)
    names = sorted(_os.listdir(folder), key=lambda n: _os.fsencode(n))
    for name in names:
        path = folder + name if folder.endswith("/") else folder + "/" + name
        st = _os.lstat(path)
        if _stat.S_ISDIR(st.st_mode):
            _walk(path, root_len, depth + 1, out)
        elif _stat.S_ISREG(st.st_mode) or (_stat.S_ISLNK(st.st_mode) and _os.path.isfile(path)):
            out.append((path, path[root_len:]))


def _has_magic(s):
    return any(c in s for c in "*?[")


def collect(paths_or_glob):
    """[(path, relative output name)] of a path, a glob pattern (with
    "**" for any depth), or a list of paths and patterns; folders are
    walked."""
    if isinstance(paths_or_glob, (str, bytes, _os.PathLike)):
        items = [paths_or_glob]
    else:
        items = list(paths_or_glob)
    out = []
    for item in items:
        item = _os.fsdecode(_os.fspath(item))
        if _has_magic(item) and not _os.path.exists(item):
            matches = sorted(_glob.glob(item, recursive=True))
            out.extend((p, _os.path.basename(p)) for p in matches if _os.path.isfile(p))
        elif _os.path.isdir(item):
            _walk(item, len(item) + (0 if item.endswith("/") else 1), 0, out)
        else:
            out.append((item, _os.path.basename(item)))
    return out


def output_name(out_dir, rel, ext):
    """out_dir/rel with rel's extension (a dot not at the start of its last
    part) replaced by ext, as --output-dir names an output."""
    head, last = _os.path.split(rel)
    dot = last.rfind(".")
    if ext is not None and dot > 0:
        last = last[:dot]
    name = _os.path.join(head, last) if head else last
    return "%s/%s%s" % (out_dir, name, "." + ext if ext is not None else "")
