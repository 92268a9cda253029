#ifndef MOVIESD_CSQLITE_SHIM_H
#define MOVIESD_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
