#!/usr/bin/env bash
# Mutation testing of the Python closed forms and claim logic with mutmut.
#
# mutmut imports the mutated package from mutants/src (or mutants/.), and its per-mutant
# bookkeeping needs the module path to match the file path; our package lives under
# python/ beside a compiled extension. So the run happens in a staging copy with the
# package at src/arqlab (the extension included) and the tests and scenarios beside it.
# Usage: tools/mutants-python.sh [OUT_DIR]   (from the project root; `make mutants-python`)
# MUTATE="theory.py studies/claims.py" and MUTANT_TESTS="tests/test_theory.py ..." narrow
# a run (paths under python/arqlab and the project root); the defaults are the full scope.
# MUTMUT_MAX_CHILDREN=1 runs one mutant at a time (default: one per CPU).
# MUTMUT_TIMEOUT_MULTIPLIER=60 widens mutmut's per-mutant CPU limit, (the tests' baseline
# time + 1 s) x multiplier x 2 (default 15): on a loaded machine the baseline is timed
# under other load than the mutant, and a clean mutant must not end as a timeout.
# MUTANT_NAMES="arqlab.studies.johnson.claims.x_fig1_claims*" runs only the mutants whose
# names match (mutmut's fnmatch patterns; all mutants are still generated and listed).
set -euo pipefail
root=$(pwd)
stage=${1:-$root/mutants-python}
# The default scope: the closed forms, the claim helpers and verdicts, every study's
# claims.py, the factorial designs (design/), the Student-t table and results.py.
mutate=${MUTATE:-theory.py studies/claims.py studies/verdicts.py studies/student_t.py results.py \
design/algebra.py design/analysis.py design/spec.py design/run.py design/cli.py \
studies/biersack/claims.py studies/bux1982/claims.py studies/colella/claims.py studies/comer_korb/claims.py \
studies/johnson/claims.py}
tests=${MUTANT_TESTS:-tests/test_theory.py tests/test_claim_helpers.py tests/test_study_framework.py \
tests/test_intervals.py tests/test_constant_memory.py tests/test_study_artefacts.py tests/test_student_t.py \
tests/test_verdicts.py tests/test_verdicts_deviations.py tests/test_verdict_statuses.py tests/test_claim_details.py \
tests/test_results.py tests/test_design.py tests/test_design_boundaries.py tests/test_design_spec_boundaries.py \
tests/test_design_run_boundaries.py tests/test_design_cli_output.py tests/test_factorial.py tests/test_edges.py \
tests/test_claim_declarations.py tests/test_claim_statements.py tests/test_claim_register.py \
tests/test_biersack.py tests/test_biersack_claims.py tests/test_bux1982.py tests/test_bux1982_t1_bound.py \
tests/test_bux1982_pinned.py tests/test_claim_refutation.py tests/test_claims_coequal.py \
tests/test_claims_framework.py tests/test_colella.py tests/test_comer_korb.py tests/test_comer_korb_inputs.py \
tests/test_johnson.py tests/test_johnson_claims.py tests/test_johnson_inputs.py tests/test_johnson_published.py}
toml_list() { local out="" x; for x in "$@"; do out+="\"$x\", "; done; echo "[${out%, }]"; }
# shellcheck disable=SC2086
only_mutate=$(toml_list $(printf 'src/arqlab/%s ' $mutate))
# shellcheck disable=SC2086
selection=$(toml_list $tests)
rm -rf "$stage" && mkdir -p "$stage/src"
cp -r python/arqlab "$stage/src/"
cp -r tests scenarios "$stage/"
cat > "$stage/pyproject.toml" <<'TOML'
[tool.pytest.ini_options]
testpaths = ["tests"]
filterwarnings = ["error", "ignore::DeprecationWarning:dateutil.*", "ignore:.*:DeprecationWarning:distributed.*"]
xfail_strict = true
markers = ["slow: longer-running validation tests"]

[tool.mutmut]
source_paths = ["src/arqlab"]
also_copy = ["scenarios", "tests"]
TOML
cat >> "$stage/pyproject.toml" <<TOML
only_mutate = $only_mutate
timeout_multiplier = ${MUTMUT_TIMEOUT_MULTIPLIER:-15}
pytest_add_cli_args_test_selection = $selection
TOML
cd "$stage"
set -f  # the names are mutmut's patterns, not the shell's
# shellcheck disable=SC2206
names=(${MUTANT_NAMES:-})
set +f
nice -n 15 "$root/.venv/bin/mutmut" run ${MUTMUT_MAX_CHILDREN:+--max-children "$MUTMUT_MAX_CHILDREN"} \
  ${names[@]+"${names[@]}"} > run.log 2>&1 || true
"$root/.venv/bin/mutmut" results > results.txt 2>&1 || true
total=$(grep -c ': ' results.txt || true)
survived=$(grep -c ': survived' results.txt || true)
echo "mutmut: $survived survived of the mutants listed in $stage/results.txt (run log: run.log)"
grep ': survived' results.txt || true
