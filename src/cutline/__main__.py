from cutline.cli import main

raise SystemExit(main())
