"""The live table server: FastAPI app, SQLAlchemy ledger, roles, RNG, recall, equipment, streaming.

The service is a thin layer over the table engines: every action is checked by the engine
(``check_*``), its events are written to the ledger in one database transaction together with
the state they change, and only then does the response go out.
"""
