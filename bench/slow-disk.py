#!/usr/bin/env python3
# A slow disk for measuring ingest on one: a read-only FUSE mirror of a folder that adds a fixed latency to
# every read request the kernel sends it (requests of up to 128 KB run concurrently, as on a network or
# cloud disk). The kernel caches what was read, so drop the page cache before each measured run.
#
#   apt-get install python3-fusepy fuse
#   python3 bench/slow-disk.py /path/to/corpus /mnt/slow 4 &      # 4 ms per read request
#   sync; echo 1 > /proc/sys/vm/drop_caches
#   STRATA_HOME=$(mktemp -d) strata ingest /mnt/slow
#   fusermount -u /mnt/slow
#
# Opening a file costs a round trip to this process too (a real disk's is cached), so the main thread's
# opens make an ingest here slower than on a disk of the same latency.
import os
import sys
import time

from fusepy import FUSE, FuseOSError, Operations


class SlowMirror(Operations):
    def __init__(self, root, latency_s):
        self.root = root
        self.latency_s = latency_s

    def _path(self, path):
        return os.path.join(self.root, path.lstrip('/'))

    def getattr(self, path, fh=None):
        try:
            st = os.lstat(self._path(path))
        except OSError as e:
            raise FuseOSError(e.errno)
        keys = ('st_atime', 'st_ctime', 'st_gid', 'st_mode', 'st_mtime', 'st_nlink', 'st_size', 'st_uid')
        return {k: getattr(st, k) for k in keys}

    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self._path(path))

    def open(self, path, flags):
        return os.open(self._path(path), os.O_RDONLY)

    def read(self, path, size, offset, fh):
        time.sleep(self.latency_s)
        return os.pread(fh, size, offset)

    def release(self, path, fh):
        os.close(fh)
        return 0


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit('usage: slow-disk.py SOURCE_DIR MOUNT_POINT LATENCY_MS')
    source, mount, latency_ms = sys.argv[1], sys.argv[2], float(sys.argv[3])
    os.makedirs(mount, exist_ok=True)
    # kernel_cache: pages read stay cached across opens, as a disk's do; long attribute timeouts: stat()
    # is answered by the kernel, as it is for a disk's cached inodes.
    FUSE(SlowMirror(source, latency_ms / 1000), mount, foreground=True, ro=True, nothreads=False,
         kernel_cache=True, attr_timeout=3600, entry_timeout=3600)
