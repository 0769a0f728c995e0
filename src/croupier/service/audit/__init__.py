"""The tamper-evident ledger: hash chains, signed checkpoints, the replay audit and bundles.

``canonical`` defines what is hashed; ``keys`` the signing key outside the database;
``chain`` recomputes the chains and writes and checks checkpoints; ``replay`` re-derives every
settlement and balance by playing the recorded outcomes through the engine; ``verify`` puts
them together (the start-up check, ``GET /audit/verify``, ``croupier audit verify``);
``bundle`` exports and checks the signed bundle a regulator verifies offline.
"""
