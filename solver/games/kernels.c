/* kernels.c - the families with a compiled kernel for solver/search/dfpn.c: the C side of
   solver/games/families.py. A family adds its kernel (a DfpnFamily beside its Python module) here. */
#include "../search/dfpn.h"

extern const DfpnFamily dfpn_positional;
extern const DfpnFamily dfpn_uttt;

const DfpnFamily *const dfpn_families[] = {&dfpn_positional, &dfpn_uttt, NULL};
