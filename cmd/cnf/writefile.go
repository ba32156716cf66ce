package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// replaceFile writes data as the new content of the regular file at path without ever
// leaving it half written: the data goes to a temporary file in the same directory, which is
// synced and then renamed over the original (a rename within a directory is atomic). The
// original's permissions are kept and, where this process may, its owner. A symbolic link is
// followed and its target replaced, so the link stays a link, as when the file is written in
// place. On any failure the original is untouched and the temporary file is removed. A file
// that does not exist yet is made the same way (cnf build -o), readable by all.
func replaceFile(path string, data []byte) (err error) {
	target, err := filepath.EvalSymlinks(path)
	perm := os.FileMode(0o644)
	var info os.FileInfo
	switch {
	case errors.Is(err, fs.ErrNotExist):
		target = path
	case err != nil:
		return err
	default:
		if info, err = os.Stat(target); err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", path)
		}
		perm = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".cnf-fmt-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary file's name means nothing to the user
		}
		return fmt.Errorf("writing %s: %w (the file is unchanged)", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("writing %s: %w (the file is unchanged)", path, err)
	}
	if info != nil {
		if err := keepOwner(tmp, info); err != nil {
			return fmt.Errorf("writing %s: %w (the file is unchanged)", path, err)
		}
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w (the file is unchanged)", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w (the file is unchanged)", path, err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("writing %s: %w (the file is unchanged)", path, err)
	}
	// Make the rename itself durable.
	if dir, derr := os.Open(filepath.Dir(target)); derr == nil {
		dir.Sync()
		dir.Close()
	}
	return nil
}
