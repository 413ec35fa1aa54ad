/* serval o3de setreg: the Settings Registry's merged view. */
#ifndef SERVAL_CMD_O3DE_SETREG_H
#define SERVAL_CMD_O3DE_SETREG_H

/* argv[0] is "setreg". Returns the exit status. */
int cmd_o3de_setreg(int argc, char **argv);

#endif
