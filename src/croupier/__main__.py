from croupier.cli import main

raise SystemExit(main())
