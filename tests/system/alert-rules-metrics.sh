#!/bin/sh
# Every metric resources/prometheus/redlock-alerts.yml reads is one the exporter writes: a renamed family in
# core/export/PrometheusExporter.cpp fails here, not silently in a Prometheus that never fires.
# Usage: alert-rules-metrics.sh <redlock-alerts.yml> <PrometheusExporter.cpp>
set -eu
rules=$1 exporter=$2
names=$(grep -E '^ *expr:' "$rules" | grep -oE 'redlock_[a-z_]+' | sed -E 's/_(bucket|count|sum)$//' | sort -u)
[ -n "$names" ] || { echo "no metric names in $rules" >&2; exit 1; }
status=0
for name in $names; do
    grep -q "\"$name\"" "$exporter" || { echo "$rules reads $name, which $exporter does not export" >&2; status=1; }
done
exit $status
