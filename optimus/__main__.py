from optimus.commands.cli import main

raise SystemExit(main())
