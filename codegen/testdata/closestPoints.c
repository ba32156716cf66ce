/* closestPoints: cannot compile: closestPoints:6:34: unknown host function midpointY: give its C implementation with --host FILE.c */

