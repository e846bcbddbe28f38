/* catalogue.h: the library's tile catalogue as JSON, for GET /api/tiles. */
#ifndef CARC_SERVER_CATALOGUE_H
#define CARC_SERVER_CATALOGUE_H

/* The catalogue of every tile kind (carc_tile()) as JSON text: a new
 * string the caller frees, or NULL when out of memory. */
char *catalogue_json(void);

#endif
