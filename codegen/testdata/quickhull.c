/* filterMax: cannot compile: quickhull:6:33: unknown host function distance: give its C implementation with --host FILE.c */

