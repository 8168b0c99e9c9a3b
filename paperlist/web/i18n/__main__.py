from .catalog import main

main()
