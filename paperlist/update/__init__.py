"""`paperlist update`: the newest papers from their official sources, through each source's maintained
client (OpenReview's API v2 with openreview-py, OpenAlex with pyalex), politely and within a budget
(polite.py), resumable after any stop (spool.py), into the store through the same records, merge and
provenance as every source file (run.py). It may import sources/, store/, ingest and the models;
nothing but the service layer imports it."""
