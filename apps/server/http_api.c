/* http_api.c: the accounts' HTTP routes. */
#include "http_api.h"
