from mapkit.cli import main

main()
