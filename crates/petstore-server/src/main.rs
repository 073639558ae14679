fn main() -> std::process::ExitCode {
    petstore_server::cli::main()
}
