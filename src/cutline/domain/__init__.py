"""Rules of the service: keys, projects, analyses, billing and quotas. No HTTP here."""
