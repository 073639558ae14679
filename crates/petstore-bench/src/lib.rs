//! Shared bits of the two baseline servers: arguments and the first line
//! of output (`Serving URL`), the same as `petstore-server serve`.

use std::net::SocketAddr;

pub struct Args {
    pub bind: SocketAddr,
    pub database: String,
    /// For the limit server: the response body of listOrders.
    pub body_file: Option<String>,
}

pub fn args() -> Args {
    let mut args = Args {
        bind: "127.0.0.1:0".parse().unwrap(),
        database: String::new(),
        body_file: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--bind" => args.bind = value.parse().expect("--bind ADDR:PORT"),
            "--database" => args.database = value,
            "--body-file" => args.body_file = Some(value),
            other => panic!("unknown flag {other}"),
        }
    }
    args
}

pub async fn listen(bind: SocketAddr) -> tokio::net::TcpListener {
    let listener = tokio::net::TcpListener::bind(bind).await.expect("bind");
    println!("Serving http://{}/v1", listener.local_addr().unwrap());
    listener
}
