"""The Godfather's console: a web page, served by the controller, that runs the table from a phone.

- :mod:`.views`: what each page may see (the table, the Godfather's choices, a gang's secrets);
- :mod:`.hub`: the console's side of a session: tokens, the Godfather's inputs, live updates;
- :mod:`.server`: the web server (Starlette on uvicorn): pages, the JSON API, the WebSocket.
"""
