"""What is written out: drafts, the players' site, the export, alerts and status."""
