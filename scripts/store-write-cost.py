#!/usr/bin/env python3
"""The CPU a new session's rows cost SQLite, against the durable baseline's one row (docs/BENCHMARKS.md).

Python's sqlite3 on the system SQLite, in a scratch folder, with the store's pragmas (WAL, synchronous NORMAL,
temp_store MEMORY, foreign keys on) and the v1 schema's tables and indexes for the rows a first answer writes: the
session, round 0, its three prompts and one history entry. Three shapes, each timed as this process's CPU
(`time.process_time`, so another process on the cores does not count), per request:
  - baseline: the stub's /baseline/durable row, one transaction each;
  - session, one transaction each;
  - session, 32 to a transaction, each in its own savepoint (the service's group commit);
  - packed, 32 to a transaction: the same session as two rows, its round and prompts packed into a column of the
    session row (a shape the store does not have: what a schema change would buy), and the history entry.
Python's own cost per statement is in every figure; compare the shapes, not the absolute numbers.
"""
import os
import sqlite3
import tempfile
import time
import uuid

SCHEMA = """
CREATE TABLE baseline (id TEXT PRIMARY KEY, request TEXT NOT NULL, answer TEXT NOT NULL, createdAt REAL NOT NULL);
CREATE TABLE session (id TEXT PRIMARY KEY, userID TEXT, locale TEXT NOT NULL, photo TEXT NOT NULL,
    templateName TEXT NOT NULL, templateVersion TEXT NOT NULL, templateVariant TEXT, ownerKey TEXT,
    refreshesUsed INT NOT NULL DEFAULT 0, refreshesPending INT NOT NULL DEFAULT 0, nextRound INT NOT NULL DEFAULT 1,
    createdAt REAL NOT NULL, expiresAt REAL NOT NULL, surplus TEXT);
CREATE INDEX session_expiresAt ON session (expiresAt);
CREATE TABLE sessionRound (sessionId TEXT NOT NULL REFERENCES session (id) ON DELETE CASCADE, round INT NOT NULL,
    source TEXT NOT NULL, fallbackReason TEXT, counted INT NOT NULL, createdAt REAL NOT NULL, answeredBy TEXT,
    templateVersion TEXT, PRIMARY KEY (sessionId, round));
CREATE TABLE sessionPrompt (id TEXT PRIMARY KEY, sessionId TEXT NOT NULL REFERENCES session (id) ON DELETE CASCADE,
    round INT NOT NULL, position INT NOT NULL, text TEXT NOT NULL, repeatKey TEXT NOT NULL, wordCount INT NOT NULL,
    source TEXT NOT NULL);
CREATE INDEX sessionPrompt_sessionId ON sessionPrompt (sessionId);
CREATE TABLE promptHistory (id INTEGER PRIMARY KEY, ownerKey TEXT NOT NULL, userID TEXT NOT NULL, prompts BLOB NOT NULL,
    shownAt REAL NOT NULL, expiresAt REAL NOT NULL);
CREATE INDEX promptHistory_expiresAt ON promptHistory (expiresAt);
CREATE TABLE packedSession (id TEXT PRIMARY KEY, userID TEXT, locale TEXT NOT NULL, photo TEXT NOT NULL,
    templateName TEXT NOT NULL, templateVersion TEXT NOT NULL, templateVariant TEXT, ownerKey TEXT,
    createdAt REAL NOT NULL, expiresAt REAL NOT NULL, surplus TEXT, rounds TEXT NOT NULL);
CREATE INDEX packedSession_expiresAt ON packedSession (expiresAt);
CREATE INDEX promptHistory_user ON promptHistory (ownerKey, userID, shownAt);
"""
REQUEST, ANSWER = "r" * 300, "a" * 700
CARD = "What drew your eye to the dog on the beach at sunset that day?"
COUNT = int(os.environ.get("COUNT", "4000"))


def baseline(db, i):
    db.execute("INSERT INTO baseline VALUES (?, ?, ?, ?)", ("s_" + uuid.uuid4().hex, REQUEST, ANSWER, time.time()))


def session(db, i):
    sid, now = "s_" + uuid.uuid4().hex, time.time()
    db.execute(
        "INSERT INTO session (id, userID, locale, photo, templateName, templateVersion, templateVariant, ownerKey,"
        " createdAt, expiresAt, surplus) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (sid, f"u{i}", "en-US", REQUEST, "photo-journal", "v1", "photo-journal", "-", now, now + 86400, ANSWER))
    db.execute("INSERT INTO sessionRound VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (sid, 0, "cache", None, 1, now, None, "v1"))
    for position in range(3):
        db.execute("INSERT INTO sessionPrompt VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   ("p_" + uuid.uuid4().hex, sid, 0, position, CARD, "drew eye dog beach sunset day", 13, "cache"))
    db.execute("INSERT INTO promptHistory (ownerKey, userID, prompts, shownAt, expiresAt) VALUES (?, ?, ?, ?, ?)",
               ("-", f"u{i}", os.urandom(81), now, now + 30 * 86400))


def packed(db, i):
    sid, now = "s_" + uuid.uuid4().hex, time.time()
    rounds = repr([(0, "cache", ["p_" + uuid.uuid4().hex, CARD, "drew eye dog beach sunset day", 13]) for _ in range(3)])
    db.execute(
        "INSERT INTO packedSession (id, userID, locale, photo, templateName, templateVersion, templateVariant, ownerKey,"
        " createdAt, expiresAt, surplus, rounds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (sid, f"u{i}", "en-US", REQUEST, "photo-journal", "v1", "photo-journal", "-", now, now + 86400, ANSWER, rounds))
    db.execute("INSERT INTO promptHistory (ownerKey, userID, prompts, shownAt, expiresAt) VALUES (?, ?, ?, ?, ?)",
               ("-", f"u{i}", os.urandom(81), now, now + 30 * 86400))


def timed(db, write, batch):
    started = time.process_time()
    for first in range(0, COUNT, batch):
        db.execute("BEGIN IMMEDIATE")
        for i in range(first, first + batch):
            if batch > 1:
                db.execute("SAVEPOINT one")
            write(db, i)
            if batch > 1:
                db.execute("RELEASE one")
        db.execute("COMMIT")
    return (time.process_time() - started) / COUNT * 1e6


with tempfile.TemporaryDirectory() as folder:
    db = sqlite3.connect(os.path.join(folder, "store.sqlite"), isolation_level=None)
    for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "temp_store = MEMORY", "foreign_keys = ON"):
        db.execute(f"PRAGMA {pragma}")
    db.executescript(SCHEMA)
    base = timed(db, baseline, 1)
    alone = timed(db, session, 1)
    grouped = timed(db, session, 32)
    two = timed(db, packed, 32)
    print(f"CPU per request, {COUNT} requests: baseline row {base:.0f} µs; session rows, a transaction each "
          f"{alone:.0f} µs ({alone / base:.2f}×); 32 to a transaction {grouped:.0f} µs ({grouped / base:.2f}×); "
          f"packed in two rows, 32 to a transaction {two:.0f} µs ({two / base:.2f}×)")
