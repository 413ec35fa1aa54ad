"""Writing a file as the serval command writes its outputs (cli/cli_io.c):

  - a new or regular file is written to a temporary file in the target's
    own folder (".NAME.XXXXXXXX"), given the mode a new file gets (0666 less
    the umask) or the old file's permission bits (never setuid, setgid or
    sticky), and renamed over the target: a reader sees the old file or the
    new one, never half of one, and a failure leaves the old one as it was;
  - through a symbolic link the file it points to is replaced, not the link
    (as cp does); a link to nothing is refused, since creating a file where
    it points would write where the caller did not name;
  - a folder is refused; a device or FIFO is written in place (there is
    nothing to rename over);
  - SIGINT, SIGTERM, SIGHUP and SIGQUIT are held back while the temporary
    file exists (in the main thread; they act once it is renamed or
    removed), and any exception removes it.
"""
import errno as _errno
import os as _os
import signal as _signal
import stat as _stat
import tempfile as _tempfile
import threading as _threading

TMP_BASE_MAX = 200  # longer names get a generic temporary name (cli_io.c)
_HELD = {getattr(_signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
         if hasattr(_signal, n)}


def _new_file_mode():
    mask = _os.umask(0)
    _os.umask(mask)
    return 0o666 & ~mask


def _hold_signals():
    if (hasattr(_signal, "pthread_sigmask")
            and _threading.current_thread() is _threading.main_thread()):
        return _signal.pthread_sigmask(_signal.SIG_BLOCK, _HELD)
    return None


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        n = _os.write(fd, view[:1 << 30])
        view = view[n:]


def _write_atomic(target, data, mode, sync):
    folder, base = _os.path.split(target)
    if len(base.encode("utf-8", "surrogateescape")) > TMP_BASE_MAX:
        base = "serval"
    saved = _hold_signals()
    try:
        fd, tmp = _tempfile.mkstemp(prefix="." + base + ".", dir=folder or ".")
        done = False
        try:
            try:
                _write_all(fd, data)
                _os.fchmod(fd, mode)
                if sync:
                    _os.fsync(fd)
            finally:
                _os.close(fd)
            _os.rename(tmp, target)
            done = True
        finally:
            if not done:
                try:
                    _os.unlink(tmp)
                except OSError:
                    pass
        if sync:
            _sync_dir(folder or ".")
    finally:
        if saved is not None:
            _signal.pthread_sigmask(_signal.SIG_SETMASK, saved)


def _sync_dir(folder):
    # best effort: makes the rename durable; some file systems refuse it
    try:
        fd = _os.open(folder, _os.O_RDONLY | getattr(_os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        _os.fsync(fd)
    except OSError:
        pass
    finally:
        _os.close(fd)


def write_file(path, data, sync=False):
    """Writes data (bytes) to path as the serval command writes an output
    (see the module's docstring); sync: fsync the file and its folder.
    Raises OSError (IsADirectoryError, FileNotFoundError for a dangling
    link, ...)."""
    path = _os.fspath(path)
    target = path
    try:
        st = _os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and _stat.S_ISLNK(st.st_mode):
        if not _os.path.exists(path):
            raise FileNotFoundError(_errno.ENOENT, "not writing through a dangling symbolic "
                                    "link", path)
        target = _os.path.realpath(path)
    try:
        st = _os.stat(target)
    except FileNotFoundError:
        _write_atomic(target, data, _new_file_mode(), sync)
        return
    if _stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(_errno.EISDIR, _os.strerror(_errno.EISDIR), path)
    if not _stat.S_ISREG(st.st_mode):
        fd = _os.open(target, _os.O_WRONLY | getattr(_os, "O_NOCTTY", 0))
        try:
            _write_all(fd, data)
        finally:
            _os.close(fd)
        return
    _write_atomic(target, data, st.st_mode & 0o777, sync)
