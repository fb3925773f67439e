"""Reading a sequence: its periods and certificates, its trajectory of readings, its status, the survey tallies, settling a code, and positions of several heaps."""
