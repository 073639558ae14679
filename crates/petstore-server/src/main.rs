//! The Pet Store server binary: the command line of `petstore_server::cli`.

fn main() -> std::process::ExitCode {
    petstore_server::cli::main()
}
