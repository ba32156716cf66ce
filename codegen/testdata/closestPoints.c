/* closestPoints: cannot compile: closestPoints:6:34: unknown host functions midpointY and closestPoints: give their C implementations with --host FILE.c */

