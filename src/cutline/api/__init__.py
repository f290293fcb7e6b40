"""The HTTP edge: app factory, routes, schemas, auth and error rendering."""
