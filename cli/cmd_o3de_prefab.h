/* serval o3de prefab: prefab patches checked against their templates. */
#ifndef SERVAL_CMD_O3DE_PREFAB_H
#define SERVAL_CMD_O3DE_PREFAB_H

/* argv[0] is "prefab". Returns the exit status. */
int cmd_o3de_prefab(int argc, char **argv);

#endif
