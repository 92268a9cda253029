# The last line of scripts/test, from swift test's output (Swift Testing's lines): "scripts/test:
# N passed, N failed, N skipped", then why tests were skipped, each reason with how many it
# skipped when there are several. Variables: status (swift test's exit status), fixtures (the
# directory the TMDB fixtures were looked for in). Tested by TestSummaryScriptTests.
#
# Counted: the tests of "Test run with N tests"; failed, each "✘ Test … failed after"; skipped,
# each "➜ Test … skipped: REASON" (.enabled(if:), .disabled) and each "◇ skipped: REASON" a test
# printed when it returned early for a missing tool (ToolRequirement; Swift Testing counts those
# as passed, so they are taken from the passed).
/Test run with [0-9]+ tests? / && !seen { for (i = NF; i >= 1; i--) if ($i == "run" && $(i + 1) == "with") total = $(i + 2); seen = 1 }
/^✘ Test / && / failed after / && !/^✘ Test run / { failed++ }
# A test Swift Testing skipped (.enabled(if:), .disabled): its comment is the reason.
/^➜ Test .* skipped/ {
  at = index($0, " skipped: "); reason = at ? substr($0, at + 10) : ""; gsub(/^"|"$/, "", reason)
  add(reason == "" ? "no reason given" : reason)
}
# A test that skipped itself (ToolRequirement): Swift Testing counts it as passed.
/^◇ skipped: / { reason = $0; sub(/^◇ skipped: /, "", reason); sub(/ \(install it to run this test\)$/, "", reason); add(reason) }
function add(reason) {
  # The fixture tests say it each in their words: one reason for all of them.
  if (reason ~ /MOVIESD_FIXTURES|tmdb-fixtures/) {
    reason = "the TMDB fixtures were not found at " fixtures " (set MOVIESD_FIXTURES or clone beside ../shared)"
  }
  if (!(reason in count)) order[++reasons] = reason
  count[reason]++; skipped++
}
END {
  if (!seen) { printf "scripts/test: swift test ended without its summary (exit status %d)\n", status; exit }
  passed = total - failed - skipped
  line = sprintf("scripts/test: %d passed, %d failed, %d skipped", passed, failed, skipped)
  for (i = 1; i <= reasons; i++) {
    line = line (i == 1 ? ": " : "; ") (reasons > 1 ? count[order[i]] " because " : "") order[i]
  }
  print line
}