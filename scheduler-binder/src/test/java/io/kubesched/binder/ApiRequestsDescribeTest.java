package io.kubesched.binder;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** A failure as the loop logs it: the API server's answer, wherever it is wrapped, in one line. */
class ApiRequestsDescribeTest {

  private static final String FORBIDDEN = "nodes is forbidden: User \"system:serviceaccount:ns:sched\" cannot list"
      + " resource \"nodes\" in API group \"\" at the cluster scope";

  @Test
  void an_answer_wrapped_by_the_informer_is_its_code_and_the_api_servers_message() {
    var answer = new KubernetesClientException(new StatusBuilder().withCode(403).withMessage(FORBIDDEN).build());
    assertEquals("403: " + FORBIDDEN, ApiRequests.describeFailure(new CompletionException(answer)));
    assertEquals("403: " + FORBIDDEN, ApiRequests.describeFailure(answer));
  }

  @Test
  void a_failure_without_an_answer_stays_what_it_was() {
    var noAnswer = new KubernetesClientException("An error has occurred.", new ConnectException("refused"));
    assertEquals(noAnswer.toString(), ApiRequests.describeFailure(noAnswer));
  }
}
