"""HTTP plumbing shared by every view, and no domain rule: what a request tells about its viewer and the page that
embeds us (``viewer``, ``origins``), what every response carries (``headers``, ``csp``, ``compression``), the ids in
URLs (``ids``), the built assets (``assets``) and where the browser reports errors (``reporting``)."""
