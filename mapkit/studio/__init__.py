"""``mapkit studio``: a browser map editor over the library, with the checks live.

``session`` holds one map being edited (revisions, saving; the text comes from
``mapkit.mapfile.writer``, the shipped maps' layout); ``playtest`` runs simulations in a worker
process; ``app`` is the Starlette application (the HTTP API of docs/studio.md), made of
``routes`` (one module per part of the page) over ``state`` (what the routes share),
``web`` (request bodies and answers) and ``guard`` (token, Host, Origin, security headers);
``static/`` is the page. Starlette and uvicorn are imported only here, so the rest
of mapkit never pays for them.
"""
