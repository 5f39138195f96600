"""The Godfather's console: a web page, served by the controller, that runs the table from a phone.

- :mod:`.tokens`: the Godfather's and the teams' tokens, and the file they are kept in;
- :mod:`.views`: what each page may see (the table, the Godfather's choices, a gang's secrets);
- :mod:`.shapes`: the shape of each input a page may send, checked before anything reads it;
- :mod:`.words`: the words a player knows for what the engine names by id;
- :mod:`.relay`: the console's side of a session: the Godfather's inputs in, live views out;
- :mod:`.server`: the web server (Starlette on uvicorn): pages, the JSON API, the WebSocket, its limits.
"""
