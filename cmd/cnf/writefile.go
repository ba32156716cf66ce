package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// replaceFile writes data as the new content of the regular file at path without ever
// leaving it half written: the data goes to a temporary file in the same directory, which is
// synced and then renamed over the original (a rename within a directory is atomic). The
// original's permissions are kept and, where this process may, its owner. A symbolic link is
// followed and its target replaced, so the link stays a link, as when the file is written in
// place. On any failure the original is untouched and the temporary file is removed.
func replaceFile(path string, data []byte) (err error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	info, err := os.Stat(target)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
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
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		return fmt.Errorf("writing %s: %w (the file is unchanged)", path, err)
	}
	if err := keepOwner(tmp, info); err != nil {
		return fmt.Errorf("writing %s: %w (the file is unchanged)", path, err)
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
