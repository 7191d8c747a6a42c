from optimus.cli import main

raise SystemExit(main())
