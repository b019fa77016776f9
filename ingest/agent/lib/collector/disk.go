package collector

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"vigil/agent/lib/lineproto"
)

// pseudoFS are filesystems without meaningful capacity, plus those Telegraf's disk
// input ignores by default (tmpfs, devtmpfs, overlay, squashfs, ...).
var pseudoFS = map[string]bool{
	"proc": true, "sysfs": true, "devtmpfs": true, "devpts": true, "tmpfs": true, "ramfs": true,
	"cgroup": true, "cgroup2": true, "securityfs": true, "debugfs": true, "tracefs": true,
	"pstore": true, "bpf": true, "mqueue": true, "hugetlbfs": true, "configfs": true,
	"fusectl": true, "autofs": true, "binfmt_misc": true, "nsfs": true, "rpc_pipefs": true,
	"selinuxfs": true, "efivarfs": true, "overlay": true, "aufs": true, "squashfs": true,
	"iso9660": true, "devfs": true, "nfsd": true, "fuse.lxcfs": true, "fuse.gvfsd-fuse": true,
}

// mount is one line of /proc/self/mounts.
type mount struct {
	device, path, fstype, mode string
}

// parseMounts returns the real filesystems of a mounts file, one per mount point
// (the first one listed wins), with octal escapes such as \040 decoded.
func parseMounts(data []byte) []mount {
	var ms []mount
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 4 {
			continue
		}
		m := mount{device: unescapeMount(fs[0]), path: unescapeMount(fs[1]), fstype: fs[2], mode: "rw"}
		if pseudoFS[m.fstype] || seen[m.path] {
			continue
		}
		for _, o := range strings.Split(fs[3], ",") {
			if o == "ro" {
				m.mode = "ro"
			}
		}
		seen[m.path] = true
		ms = append(ms, m)
	}
	return ms
}

// unescapeMount decodes the kernel's octal escapes (\040 space, \011 tab, \012 newline, \134 backslash).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// fsStats is what statfs tells about one filesystem.
type fsStats struct {
	blockSize                       uint64
	blocks, blocksFree, blocksAvail uint64
	inodes, inodesFree              uint64
}

func statfs(path string) (fsStats, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return fsStats{}, err
	}
	return fsStats{
		blockSize:   uint64(st.Bsize),
		blocks:      st.Blocks,
		blocksFree:  st.Bfree,
		blocksAvail: st.Bavail,
		inodes:      st.Files,
		inodesFree:  st.Ffree,
	}, nil
}

// Disk reports capacity and inode usage per mounted filesystem, like Telegraf's disk input:
// `free` is what unprivileged users may still use, `used_percent` = used / (used + free).
type Disk struct {
	opts   Options
	statfs func(path string) (fsStats, error)
}

// Name implements Collector.
func (c *Disk) Name() string { return "disk" }

// Collect implements Collector.
func (c *Disk) Collect(acc *Accumulator) error {
	// In a container with the host's / under HostRoot, the host's mount table is init's.
	mounts := c.opts.proc("self", "mounts")
	if c.opts.HostRoot != "" {
		mounts = c.opts.proc("1", "mounts")
	}
	data, err := readFile(mounts)
	if err != nil {
		return err
	}
	for _, m := range parseMounts(data) {
		st, err := c.statfs(filepath.Join("/", c.opts.HostRoot, m.path))
		if err != nil || st.blocks == 0 {
			// Unreachable (permissions, stale NFS) or empty filesystems are skipped, as in Telegraf.
			continue
		}
		total := st.blocks * st.blockSize
		free := st.blocksAvail * st.blockSize
		used := (st.blocks - st.blocksFree) * st.blockSize
		inodesUsed := uint64(0)
		if st.inodes > st.inodesFree {
			inodesUsed = st.inodes - st.inodesFree
		}
		acc.Add("disk", []lineproto.Tag{
			{Key: "device", Value: strings.TrimPrefix(m.device, "/dev/")},
			{Key: "fstype", Value: m.fstype},
			{Key: "mode", Value: m.mode},
			{Key: "path", Value: m.path},
		},
			lineproto.U("total", total),
			lineproto.U("free", free),
			lineproto.U("used", used),
			lineproto.F("used_percent", percent(float64(used), float64(used+free))),
			lineproto.U("inodes_total", st.inodes),
			lineproto.U("inodes_free", st.inodesFree),
			lineproto.U("inodes_used", inodesUsed),
			lineproto.F("inodes_used_percent", percent(float64(inodesUsed), float64(st.inodes))),
		)
	}
	return nil
}
