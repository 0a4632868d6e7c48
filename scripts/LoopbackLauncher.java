/*
 * Starts AWS's DynamoDB Local bound to 127.0.0.1 only: its command line has no host option
 * and its Jetty server listens on every interface, so the server it builds from the usual arguments
 * gets its connectors' host set before it starts. Run in Java's single-file source mode
 * (`java -cp DynamoDBLocal.jar:DynamoDBLocal_lib/* LoopbackLauncher.java <DynamoDB Local arguments>`)
 * by scripts/dynamo-local.ts; nothing else of DynamoDB Local changes.
 */
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LoopbackLauncher {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    int bound = 0;
    for (Connector connector : server.getConnectors()) {
      if (connector instanceof ServerConnector) {
        ((ServerConnector) connector).setHost("127.0.0.1");
        bound++;
      }
    }
    // Never fall back to listening everywhere: a build whose server we cannot reach into stops here.
    if (bound == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind to 127.0.0.1");
    proxy.start();
    System.out.println("DynamoDB Local listening on 127.0.0.1 only");
  }
}
