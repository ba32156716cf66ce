//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"
)

// keepOwner gives f the owner of the file described by info when this process may (root
// formatting another user's file); otherwise f stays this user's, as with any editor's
// save-by-rename.
func keepOwner(f *os.File, info os.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if err := f.Chown(int(st.Uid), int(st.Gid)); err != nil && !errors.Is(err, os.ErrPermission) {
		return err
	}
	return nil
}
