#!/usr/bin/env bash
# Mutation testing of the Python closed forms and claim logic with mutmut.
#
# mutmut imports the mutated package from mutants/src (or mutants/.), and its per-mutant
# bookkeeping needs the module path to match the file path; our package lives under
# python/ beside a compiled extension. So the run happens in a staging copy with the
# package at src/arqlab (the extension included) and the tests and scenarios beside it.
# Usage: tools/mutants-python.sh [OUT_DIR]   (from the project root; `make mutants-python`)
set -euo pipefail
root=$(pwd)
stage=${1:-$root/mutants-python}
rm -rf "$stage" && mkdir -p "$stage/src"
cp -r python/arqlab "$stage/src/"
cp -r tests scenarios "$stage/"
cat > "$stage/pyproject.toml" <<'TOML'
[tool.pytest.ini_options]
testpaths = ["tests"]
filterwarnings = ["error", "ignore::DeprecationWarning:dateutil.*", "ignore:.*:DeprecationWarning:distributed.*"]
xfail_strict = true

[tool.mutmut]
source_paths = ["src/arqlab"]
only_mutate = ["src/arqlab/theory.py", "src/arqlab/studies/claims.py", "src/arqlab/studies/verdicts.py",
               "src/arqlab/studies/student_t.py", "src/arqlab/results.py"]
pytest_add_cli_args_test_selection = ["tests/test_theory.py", "tests/test_claim_helpers.py",
                                      "tests/test_study_framework.py", "tests/test_intervals.py",
                                      "tests/test_constant_memory.py"]
also_copy = ["scenarios", "tests"]
TOML
cd "$stage"
nice -n 15 "$root/.venv/bin/mutmut" run > run.log 2>&1 || true
"$root/.venv/bin/mutmut" results > results.txt 2>&1 || true
total=$(grep -c ': ' results.txt || true)
survived=$(grep -c ': survived' results.txt || true)
echo "mutmut: $survived survived of the mutants listed in $stage/results.txt (run log: run.log)"
grep ': survived' results.txt || true
