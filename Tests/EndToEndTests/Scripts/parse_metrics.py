#!/usr/bin/env python3
"""Parses `movies metrics` output with prometheus_client's own parsers and prints what they read
as one JSON object: {"families": {name: type}, "samples": [[name, labels, value], ...]}.

Usage: parse_metrics.py prometheus|openmetrics FILE
The text format 0.0.4 is read by prometheus_client.parser, OpenMetrics 1.0 by the strict
prometheus_client.openmetrics.parser (which refuses anything the specification does not allow,
a missing "# EOF" included). Exits 1 with the parser's message when the text does not parse."""
import json
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics_families
from prometheus_client.parser import text_string_to_metric_families as prometheus_families

kind, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
parse = openmetrics_families if kind == "openmetrics" else prometheus_families
try:
    families = list(parse(text))
except Exception as error:  # the parser's own message is the test's failure
    print(f"{kind} parse error: {error}", file=sys.stderr)
    sys.exit(1)
print(json.dumps({
    "families": {family.name: family.type for family in families},
    "samples": [[sample.name, sample.labels, sample.value] for family in families for sample in family.samples],
}))
