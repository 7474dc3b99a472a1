"""Report outputs beyond the markdown table: charts (SVG), safe cells for markdown and CSV, JUnit XML."""
