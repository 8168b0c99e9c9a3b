-- paperlist store schema. The version lives in meta('schema_version'); store/migrations.py
-- upgrades older files step by step. Everything below `records` is derived by the merge and
-- can be rebuilt from `records` alone.

CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- One row per ingested source file, keyed independently of where it was read from.
CREATE TABLE IF NOT EXISTS files (
    key            TEXT PRIMARY KEY,          -- "papercopilot:nips2018"
    source         TEXT NOT NULL,             -- reader name
    location       TEXT NOT NULL,             -- last path or URL it was read from
    sha256         TEXT NOT NULL,             -- of the decompressed bytes
    reader_version INTEGER NOT NULL,
    records        INTEGER NOT NULL,
    skipped        INTEGER NOT NULL,
    ingested_at    TEXT NOT NULL              -- ISO 8601, UTC
) WITHOUT ROWID;

-- Normalized source records: the source of truth for everything below. (A rowid table: its rows
-- carry kilobytes of JSON, which WITHOUT ROWID tables store badly.)
CREATE TABLE IF NOT EXISTS records (
    file     TEXT NOT NULL,
    key      TEXT NOT NULL,
    source   TEXT NOT NULL,
    block    TEXT NOT NULL,                   -- "<venue family>:<year>": records that may match
    hash     TEXT NOT NULL,
    data     BLOB NOT NULL,                   -- the Record as JSON
    paper_id TEXT,
    PRIMARY KEY (file, key)
);
CREATE INDEX IF NOT EXISTS records_block ON records(block);
CREATE INDEX IF NOT EXISTS records_paper ON records(paper_id);
CREATE INDEX IF NOT EXISTS records_key ON records(key);          -- a source's own id ("11127") finds its paper

-- Blocks whose records changed since they were last merged (survives an interrupted ingest).
CREATE TABLE IF NOT EXISTS dirty_blocks (
    block TEXT PRIMARY KEY
) WITHOUT ROWID;

-- Authors whose papers a merge wrote or deleted and whose `authors` row is not recomputed yet:
-- written in the transaction of each merged block, consumed by the author refresh in one
-- transaction (survives an interrupted merge like dirty_blocks).
CREATE TABLE IF NOT EXISTS pending_authors (
    key TEXT PRIMARY KEY
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS venues (
    key      TEXT PRIMARY KEY,
    short    TEXT NOT NULL,
    name     TEXT NOT NULL,
    field    TEXT NOT NULL,
    kind     TEXT NOT NULL,
    parent   TEXT,
    family   TEXT NOT NULL,
    aliases  TEXT NOT NULL,                   -- JSON list
    known    INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS papers (
    id             TEXT PRIMARY KEY,
    block          TEXT NOT NULL,
    venue          TEXT NOT NULL,
    family         TEXT NOT NULL,
    year           INTEGER NOT NULL,
    title          TEXT NOT NULL,             -- display form (LaTeX / markdown kept)
    title_plain    TEXT,                      -- NULL when the same as title
    abstract       TEXT,
    abstract_plain TEXT,                      -- NULL when the same as abstract
    track          TEXT,
    status         TEXT,
    accepted       INTEGER NOT NULL,
    primary_area   TEXT,
    citations      INTEGER,
    bibtex         TEXT,
    tldr           TEXT,
    summary_zh     TEXT,
    award          TEXT,
    n_authors      INTEGER NOT NULL,
    biblio         TEXT NOT NULL,             -- JSON {bibkey, booktitle, journal, volume, pages, ...}
    institutions   TEXT,                      -- JSON list of the authors' institutions not tied to one author
    ids            TEXT NOT NULL,             -- JSON {kind: id}
    sources        TEXT NOT NULL,             -- JSON list of record refs
    provenance     TEXT NOT NULL,             -- JSON {field: file key}; unmodeled fields stay in records
    hash           TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    countries      TEXT                       -- JSON list of the authors' countries (a source's list)
);
CREATE INDEX IF NOT EXISTS papers_block ON papers(block);
CREATE INDEX IF NOT EXISTS papers_venue_year ON papers(venue, year, status);
-- a conference-year list counts its accepted (or other) papers from the index alone
CREATE INDEX IF NOT EXISTS papers_venue_year_accepted ON papers(venue, year, accepted, status);
CREATE INDEX IF NOT EXISTS papers_family_year ON papers(family, year);
CREATE INDEX IF NOT EXISTS papers_year ON papers(year);
CREATE INDEX IF NOT EXISTS papers_status ON papers(status);

CREATE TABLE IF NOT EXISTS paper_authors (
    paper_id    TEXT NOT NULL,
    position    INTEGER NOT NULL,
    author_key  TEXT NOT NULL,
    name        TEXT NOT NULL,                -- as the chosen source writes it
    affiliation TEXT,
    orcid       TEXT,
    PRIMARY KEY (paper_id, position)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS paper_authors_author ON paper_authors(author_key);

CREATE TABLE IF NOT EXISTS authors (
    key    TEXT PRIMARY KEY,
    name   TEXT NOT NULL,                     -- the most common written form
    papers INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS links (
    paper_id TEXT NOT NULL,
    kind     TEXT NOT NULL,
    url      TEXT NOT NULL,
    PRIMARY KEY (paper_id, kind, url)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS keywords (
    paper_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    keyword  TEXT NOT NULL,
    PRIMARY KEY (paper_id, position)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS keywords_keyword ON keywords(keyword COLLATE NOCASE);

-- External ids (doi, arxiv, openreview, acl) -> paper.
CREATE TABLE IF NOT EXISTS paper_ids (
    kind     TEXT NOT NULL,
    value    TEXT NOT NULL,
    paper_id TEXT NOT NULL,
    PRIMARY KEY (kind, value, paper_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS paper_ids_paper ON paper_ids(paper_id);

-- Which source files a conference-year's papers come from (derived by the merge, per block): what
-- coverage and "updated from its sources" read without joining every record.
CREATE TABLE IF NOT EXISTS venue_year_files (
    block    TEXT NOT NULL,
    venue    TEXT NOT NULL,
    year     INTEGER NOT NULL,
    file     TEXT NOT NULL,
    papers   INTEGER NOT NULL,                -- papers of this venue-year the file's records describe
    records  INTEGER NOT NULL,
    PRIMARY KEY (venue, year, file)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS venue_year_files_block ON venue_year_files(block);

-- Ids that a re-merge retired, pointing at the paper that now holds their records.
CREATE TABLE IF NOT EXISTS paper_aliases (
    old_id   TEXT PRIMARY KEY,
    paper_id TEXT NOT NULL
) WITHOUT ROWID;

-- Topics of each paper (paperlist/topics): 1-3 rows per paper, rank 1 = its main topic. Venue and
-- year are copied from papers so topic statistics need no join. Derived: `paperlist topics assign`
-- rewrites the table whole.
CREATE TABLE IF NOT EXISTS paper_topics (
    paper_id TEXT NOT NULL,
    topic    TEXT NOT NULL,                   -- a leaf topic slug of paperlist/topics/taxonomy.toml
    rank     INTEGER NOT NULL,                -- 1 = the paper's main topic
    score    REAL NOT NULL,                   -- 0..1, higher = more clearly about the topic
    venue    TEXT NOT NULL,
    year     INTEGER NOT NULL,
    published INTEGER NOT NULL DEFAULT 1,     -- 0: the paper was rejected or withdrawn (copied from papers)
    PRIMARY KEY (paper_id, topic)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS paper_topics_topic ON paper_topics(topic, year, venue);
-- a topic page's papers, newest year first, then the clearest: read in index order, no sort
CREATE INDEX IF NOT EXISTS paper_topics_page ON paper_topics(topic, published, year DESC, rank, score DESC);
-- What a topic's page counts (papers per year, venue and venue-year: topics.stats.topic_detail), JSON,
-- derived with the assignments (meta topic_stats_fingerprint = the topics' fingerprint when current).
CREATE TABLE IF NOT EXISTS topic_stats (
    slug TEXT PRIMARY KEY,
    data TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS papers_work ON papers(substr(id, instr(id, '-') + 1));  -- versions.work_key
CREATE INDEX IF NOT EXISTS paper_topics_venue ON paper_topics(venue, year, topic);   -- a venue-year's topics

-- Review scores of a paper, from the one source merge chose (provenance "review"). Written with the
-- paper. rating / confidence are the means (computed from the lists when they are there; the
-- source's mean when from_mean); NULL = unknown. rank / rated: the paper's place by mean rating
-- among the rated papers of its venue-year (1 = highest), derived with venue_year_stats.
CREATE TABLE IF NOT EXISTS paper_reviews (
    paper_id    TEXT PRIMARY KEY,
    venue       TEXT NOT NULL,
    year        INTEGER NOT NULL,
    n           INTEGER,                      -- number of ratings
    rating      REAL,
    confidence  REAL,
    ratings     TEXT NOT NULL,                -- JSON list, the reviews' order
    confidences TEXT NOT NULL,                -- JSON list
    dims        TEXT NOT NULL,                -- JSON {dimension: [scores]}
    from_mean   INTEGER NOT NULL,             -- 1: the source gave only the mean
    source      TEXT NOT NULL,                -- the file key it came from
    rank        INTEGER,
    rated       INTEGER,
    as_of       TEXT                          -- the snapshot's date (scores before decisions); NULL: final
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS paper_reviews_venue_year ON paper_reviews(venue, year, rating);

-- Statistics of each venue-year (paperlist/stats), JSON, rebuilt whole after an ingest.
CREATE TABLE IF NOT EXISTS venue_year_stats (
    venue TEXT NOT NULL,
    year  INTEGER NOT NULL,
    data  TEXT NOT NULL,
    PRIMARY KEY (venue, year)
) WITHOUT ROWID;

-- Curated reading lists (paperlist/curated): each list read from its markdown, as given (one
-- transaction per list, replaced when its files change), and which papers each entry names.
CREATE TABLE IF NOT EXISTS curated_lists (
    list     TEXT PRIMARY KEY,                -- owner/repo
    data     TEXT NOT NULL,                   -- JSON: commit, date, license, topic, kind, files, url
    digest   TEXT NOT NULL                    -- of its files: unchanged files are not read again
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS curated_entries (
    list     TEXT NOT NULL,
    position INTEGER NOT NULL,
    data     TEXT NOT NULL,                   -- JSON: title, alternatives, year, ids, headings
    PRIMARY KEY (list, position)
) WITHOUT ROWID;
-- Derived from the two above and the papers (rebuilt when either changed; meta curated_matched).
CREATE TABLE IF NOT EXISTS paper_lists (
    paper_id TEXT NOT NULL,
    list     TEXT NOT NULL,
    data     TEXT NOT NULL,                   -- JSON: the entries' positions and headings, how matched
    PRIMARY KEY (paper_id, list)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS paper_lists_list ON paper_lists(list);
