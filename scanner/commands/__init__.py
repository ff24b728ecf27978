"""One module per `tablescan` sub-command; scanner.cli discovers them."""
