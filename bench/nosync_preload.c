/* For bench/whole_process.sh only: preloaded (LD_PRELOAD) into serval to
 * time a conv without the fsync of its output, next to the same conv with
 * it. serval itself always syncs (docs/security.md): this file is never
 * linked into anything. */
int fsync(int fd);
int fdatasync(int fd);

int fsync(int fd)
{
    (void)fd;
    return 0;
}

int fdatasync(int fd)
{
    (void)fd;
    return 0;
}
