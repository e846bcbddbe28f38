/* http_api.h: the accounts' HTTP routes. */
#ifndef CARC_SERVER_HTTP_API_H
#define CARC_SERVER_HTTP_API_H
#endif
