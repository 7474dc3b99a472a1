"""Report stage: write report.md, report.csv, report.json, JUnit and charts from the evaluations."""
